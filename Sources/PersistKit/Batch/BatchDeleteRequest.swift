/// Deletes every object a predicate matches (or the objects with given IDs) in SQL, without
/// making managed objects, keeping the relationships' delete rules.
///
/// ```swift
/// let request = BatchDeleteRequest<Contact>(predicate: \.bucket == 3)
/// let gone = try context.execute(request).objectIDs     // cascaded objects included
/// ```
///
/// `.cascade` deletes related rows too, to any depth; `.nullify` sets references to the deleted
/// rows to nil; `.deny` refuses the whole request with `.validation` naming the objects still
/// held, and nothing is deleted. The rows are chosen inside the request's transaction, which
/// writes one persistent-history transaction (the nullified rows as updated under their
/// relationship). Every context of the container merges the deletions at its next
/// `processPendingChanges()` (other processes' from the history): its objects report
/// `isDeleted`, its controllers drop their rows.
public struct BatchDeleteRequest<Result: ManagedObject> {
    enum Target {
        case predicate(FetchPredicate<Result>?)
        case objectIDs([ObjectID])
    }

    /// The entity's name, when it is not found from `Result`.
    public var entityName: String?
    /// Whether a predicate's request deletes the objects of the entity's sub-entities too (true,
    /// as a Core Data fetch request does); false deletes only objects whose entity is the
    /// request's own (see <doc:EntityInheritance>). A request by IDs deletes the objects named.
    public var includesSubentities = true
    let target: Target

    /// A request deleting every object `predicate` matches (all of them when nil).
    public init(entityName: String? = nil, predicate: FetchPredicate<Result>? = nil) {
        self.entityName = entityName
        target = .predicate(predicate)
    }

    /// A request deleting the saved objects with these IDs (IDs of objects already gone are
    /// skipped).
    public init(entityName: String? = nil, objectIDs: [ObjectID]) {
        self.entityName = entityName
        target = .objectIDs(objectIDs)
    }
}
