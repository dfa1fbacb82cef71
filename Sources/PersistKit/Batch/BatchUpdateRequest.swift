/// Sets attributes of every object a predicate matches, in one SQL `UPDATE`, without making
/// managed objects.
///
/// ```swift
/// let request = BatchUpdateRequest<TaskItem>(predicate: \.isComplete == true, propertiesToUpdate: ["notes": nil])
/// let changed = try context.execute(request).objectIDs
/// ```
///
/// Values are checked as a save checks them; the predicate is evaluated by SQLite on the saved
/// rows (the context's unsaved changes are not seen, as with Core Data's batch requests). The
/// request writes one persistent-history transaction; every context of the container merges the
/// changed objects at its next `processPendingChanges()`, other processes' from the history.
public struct BatchUpdateRequest<Result: ManagedObject> {
    /// The entity's name, when it is not found from `Result`.
    public var entityName: String?
    /// Which objects change; nil for all.
    public var predicate: FetchPredicate<Result>?
    /// Attribute names and their new values (nil sets an optional attribute to nil).
    public var propertiesToUpdate: [String: Any?]
    /// Whether the objects of the entity's sub-entities change too (true, as Core Data's
    /// `NSBatchUpdateRequest`); false changes only objects whose entity is the request's own
    /// (see <doc:EntityInheritance>).
    public var includesSubentities = true

    /// A request setting `propertiesToUpdate` on every object `predicate` matches.
    public init(entityName: String? = nil, predicate: FetchPredicate<Result>? = nil, propertiesToUpdate: [String: Any?]) {
        self.entityName = entityName
        self.predicate = predicate
        self.propertiesToUpdate = propertiesToUpdate
    }
}
