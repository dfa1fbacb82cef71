/// One object as an undo group first saw it, before the group's first change to it: what undoing
/// the group puts back (see ``ContextUndoManager``).
///
/// Relationships are kept as the objects they held, not as references: a save turns an insert's
/// temporary key into its primary key, and an undone deletion that was already saved comes back
/// under a new ID, so a stored reference would go stale while the object stays the same.
struct UndoRecord {
    /// What a to-one or a list member held: the object, or a saved row's key when its object was
    /// not in memory (it is read when the group is undone).
    enum Target {
        case object(ManagedObject)
        case key(Int64)
    }

    /// The object (held: its undo must find the same instance).
    let object: ManagedObject
    /// Whether it was in the context and not deleted.
    let wasLive: Bool
    /// Its values (every slot) as they were.
    let values: ContiguousArray<SQLValue>
    /// Each foreign-key relationship's object (nil: none), by relationship index.
    let toOnes: [Int: Target?]
    /// The owned lists (a join table's owning side) the group changed, as they were, by
    /// relationship index: recorded at each list's first change in the group.
    var lists: [Int: [Target]] = [:]
}
