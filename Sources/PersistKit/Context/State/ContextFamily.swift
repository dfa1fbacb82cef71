/// A context's place among nested contexts: its parent (a child context's edits go there, not
/// to the store), its children (told when this context's save gives inserts their permanent
/// IDs), and, in a child, what each object looked like when it came from the parent (its
/// **baseline**), so that a push sends only the child's own edits.
///
/// Invariants:
/// - `parent` is set once, when the child is made, and kept (a child holds its parent, as in
///   Core Data); a context without one pays a nil test on the paths that ask.
/// - `children` holds its children weakly: a child dropped unsaved is gone with its edits.
/// - A baseline is kept only for an object the context holds while it differs from the store
///   (inserted, changed or deleted), and is replaced at each push and each import.
struct ContextFamily {
    /// What an object looked like when the child last took it from its parent (or pushed it).
    struct Baseline {
        let object: ManagedObject
        var storage: ContiguousArray<SQLValue>
        /// Owned lists (the owning side of a join table) as they were, by relationship index.
        var lists: [Int: [Int64]]
        var wasInserted: Bool
        var wasDeleted: Bool
    }

    /// A child, held weakly.
    private struct Child {
        weak var context: ManagedObjectContext?
    }

    /// The context this one pushes its saves into; nil for a context over the store.
    private(set) var parent: ManagedObjectContext?
    private var children: [Child] = []
    /// Baselines by object address.
    private(set) var baselines: [ObjectIdentifier: Baseline] = [:]

    /// Makes this context a child of `parent` (once, when it is made).
    mutating func setParent(_ parent: ManagedObjectContext) {
        self.parent = parent
    }

    /// Notes a new child; forgets children that are gone.
    mutating func addChild(_ child: ManagedObjectContext) {
        children.removeAll { $0.context == nil }
        children.append(Child(context: child))
    }

    /// The children still alive.
    var liveChildren: [ManagedObjectContext] { children.compactMap(\.context) }

    /// Whether any child was ever made (the save's one test).
    var hasChildren: Bool { !children.isEmpty }

    /// The baseline of `object`, if it came from the parent or was pushed.
    func baseline(of object: ManagedObject) -> Baseline? {
        baselines.isEmpty ? nil : baselines[ObjectIdentifier(object)]
    }

    /// Records `object` as it is now: what the parent holds for it.
    mutating func setBaseline(_ baseline: Baseline) {
        baselines[ObjectIdentifier(baseline.object)] = baseline
    }

    /// Forgets `object`'s baseline (refreshed from the store: the parent's edit of it is
    /// neither shown nor pushed back).
    mutating func forgetBaseline(of object: ManagedObject) {
        baselines[ObjectIdentifier(object)] = nil
    }

    /// Forgets every baseline (a rollback or reset takes the parent's state again).
    mutating func forgetBaselines() {
        baselines.removeAll()
    }

    /// After the parent's save: references to its inserts become their primary keys in the
    /// baselines too, and the saved inserts are no longer inserts there.
    mutating func makeBaselinesPermanent(_ permanentKeys: [Int64: Int64], foreignKeySlots: (ManagedObject) -> [Int]) {
        for (address, var baseline) in baselines {
            for slot in foreignKeySlots(baseline.object) {
                guard case .integer(let reference) = baseline.storage[slot], reference < 0,
                      let key = permanentKeys[-reference] else { continue }
                baseline.storage[slot] = .integer(key)
            }
            for (index, list) in baseline.lists {
                baseline.lists[index] = list.map { $0 < 0 ? permanentKeys[-$0] ?? $0 : $0 }
            }
            if baseline.wasInserted, permanentKeys[baseline.object.objectID.key] != nil || !baseline.object.objectID.isTemporary {
                baseline.wasInserted = false
            }
            baselines[address] = baseline
        }
    }
}
