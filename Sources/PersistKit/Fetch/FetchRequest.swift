/// What to fetch: an entity, a predicate, a sort, a window.
///
/// ```swift
/// var request = FetchRequest<TaskItem>(
///     predicate: \.isComplete == false,
///     sortBy: [FetchSortDescriptor(\.due, nils: .last)])
/// request.fetchLimit = 50
/// let tasks = try context.fetch(request)
/// ```
public struct FetchRequest<Result: ManagedObject>: Sendable {
    /// The entity to fetch; nil means `Result`'s entity.
    public var entityName: String?
    /// The condition objects must meet; nil fetches every object.
    public var predicate: FetchPredicate<Result>?
    /// The sort, first descriptor first. Ties are broken by primary key, so the order is
    /// always total and the same in SQL and in memory.
    public var sortDescriptors: [FetchSortDescriptor<Result>]
    /// At most this many objects; 0 for no limit.
    public var fetchLimit: Int = 0
    /// Skip this many objects first.
    public var fetchOffset: Int = 0
    /// Whether the fetch sees the context's unsaved changes (true by default): inserted objects
    /// that match appear, changed objects are re-evaluated, deleted objects are gone.
    public var includesPendingChanges = true

    /// A request for objects of `Result`'s entity.
    public init(predicate: FetchPredicate<Result>? = nil, sortBy sortDescriptors: [FetchSortDescriptor<Result>] = []) {
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
    }

    /// A request for objects of the entity named `entityName` (for models loaded from a
    /// document, with `Result` being `ManagedObject`).
    public init(entityName: String, predicate: FetchPredicate<Result>? = nil,
                sortBy sortDescriptors: [FetchSortDescriptor<Result>] = []) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
    }
}
