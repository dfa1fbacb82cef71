/// What one undo group changed: each object's record as it was before the group's first change
/// to it, in the order the group first touched them, and the group's action name.
final class UndoGroup {
    /// The name of the action, for a menu item ("Undo Rename").
    var actionName = ""
    private(set) var records: [UndoRecord] = []
    private var positions: [ObjectIdentifier: Int] = [:]

    var isEmpty: Bool { records.isEmpty }

    /// Whether the group holds a record of `object`.
    func contains(_ object: ManagedObject) -> Bool {
        positions[ObjectIdentifier(object)] != nil
    }

    /// The record of `object`, if the group holds one.
    func record(of object: ManagedObject) -> UndoRecord? {
        positions[ObjectIdentifier(object)].map { records[$0] }
    }

    /// Adds the first record of an object (a second one is ignored: the first is what it was).
    func add(_ record: UndoRecord) {
        let id = ObjectIdentifier(record.object)
        guard positions[id] == nil else { return }
        positions[id] = records.count
        records.append(record)
    }

    /// Whether the record of `object` holds list `index`.
    func holdsList(of object: ManagedObject, relationship index: Int) -> Bool {
        guard let position = positions[ObjectIdentifier(object)] else { return false }
        return records[position].lists[index] != nil
    }

    /// Records list `index` of `object` as it was, unless recorded already.
    func addList(_ members: [UndoRecord.Target], of object: ManagedObject, relationship index: Int) {
        guard let position = positions[ObjectIdentifier(object)], records[position].lists[index] == nil else { return }
        records[position].lists[index] = members
    }
}
