/// One object's change in a transaction of the persistent history.
///
/// ```swift
/// for change in transaction.changes where change.kind == .update && change.changedKeys.contains("due") {
///     reschedule(change.objectID)
/// }
/// ```
public struct HistoryChange: Sendable, Hashable {
    /// What happened to an object.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The object was inserted.
        case insert
        /// Some of the object's attributes or relationships changed (see ``HistoryChange/changedKeys``).
        case update
        /// The object was deleted.
        case delete
    }

    /// The object (its ID stays valid after a delete, for matching).
    public let objectID: ObjectID
    /// Whether it was inserted, updated or deleted.
    public let kind: Kind
    /// For an update, the attribute and relationship names that changed, in the entity's
    /// order; empty for an insert or a delete. A to-many relationship stored in a join table
    /// is reported on its owning side only.
    public let changedKeys: [String]
}
