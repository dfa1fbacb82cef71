/// One change notice from a context: what changed since the previous notice.
///
/// ``ManagedObjectContext/processPendingChanges()`` (run also by save and fetch) hands it to
/// every observer.
///
/// ```swift
/// let token = context.addObserver { changes in
///     if changes.invalidatedAll { reloadEverything(); return }
///     for (object, keys) in changes.updated where keys.contains("name") { redraw(object) }
///     print(changes.inserted.count, "new,", changes.deleted.count, "gone")
/// }
/// ```
public struct ContextChanges {
    /// Objects inserted (or, after a rollback, brought back).
    public internal(set) var inserted: [ManagedObject] = []
    /// Objects whose values changed, with the names of the attributes that changed.
    public internal(set) var updated: [(object: ManagedObject, keys: ChangedKeys)] = []
    /// Objects deleted (or, after a rollback, discarded inserts).
    public internal(set) var deleted: [ManagedObject] = []
    /// The context was reset, or another process changed the store in a way its persistent
    /// history cannot tell (purged before it was read; written by an older PersistKit or
    /// another program): anything may have changed, and observers should refetch.
    public internal(set) var invalidatedAll = false
    /// Saved rows of other contexts' and processes' deletions that this context did not hold,
    /// by entity name: a batched results controller may hold their keys.
    var deletedKeys: [String: [Int64]] = [:]

    /// Whether the notice reports nothing.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && !invalidatedAll }
}
