/// What deleting an object does to the objects a relationship of it holds.
///
/// ```swift
/// @Relationship(deleteRule: .cascade) var tasks: Set<TaskItem>   // deleting a project deletes its tasks
/// ```
///
/// Rules run when the object is deleted, so the context's pending state is consistent before
/// the save.
public enum DeleteRule: String, Sendable, Hashable, Codable {
    /// The related objects stay; the deleted object is removed from their inverse relationship.
    case nullify
    /// The related objects are deleted too (and their own rules run).
    case cascade
    /// The save fails with `.validation` while the relationship holds any object.
    case deny
    /// Nothing is done in memory; the store sets dangling references to NULL.
    case noAction
}
