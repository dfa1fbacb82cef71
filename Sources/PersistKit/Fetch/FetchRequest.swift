import Foundation
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
    /// Whether the fetch returns the objects of the entity's sub-entities too (Core Data's
    /// name); true by default. A fetch of `Animal` then returns its `Dog`s and `Cat`s, each an
    /// instance of its own class (see <doc:EntityInheritance>).
    ///
    /// ```swift
    /// var request = FetchRequest<Animal>()
    /// request.includesSubentities = false    // only objects whose entity is Animal itself
    /// ```
    public var includesSubentities = true
    /// How many objects are made at a time: by ``ManagedObjectContext/fetchBatched(_:)`` (0: 500),
    /// and by a ``FetchedResultsController``, which with a batch size holds each row's key and
    /// sort values instead of its object (0: it holds every object).
    ///
    /// ```swift
    /// var request = FetchRequest<Contact>(sortBy: [FetchSortDescriptor(\.name)])
    /// request.fetchBatchSize = 500
    /// ```
    ///
    /// See <doc:WorkingWithLargeData>.
    public var fetchBatchSize: Int = 0
    /// Relationships to load for every fetched object as part of the fetch, by key path
    /// (`"project"`, `"tags"`, `"project.owner"`): one query per key path segment for all the
    /// objects, instead of one query per object when each relationship is first read.
    ///
    /// ```swift
    /// var request = FetchRequest<TaskItem>()
    /// request.relationshipKeyPathsForPrefetching = ["project", "project.owner", "tags"]
    /// for task in try context.fetch(request) {
    ///     print(task.project?.name ?? "-")     // no query: the projects were read with the tasks
    /// }
    /// ```
    ///
    /// A segment after the first starts from the objects the previous one reached (through a
    /// to-one or a to-many). Prefetched relationships read exactly as unprefetched ones do,
    /// unsaved changes included; the related objects stay alive as long as the fetched objects
    /// do. A name that is not a relationship makes the fetch throw ``PersistError`` `.invalidRequest`.
    public var relationshipKeyPathsForPrefetching: [String] = []

    /// A request for objects of `Result`'s entity.
    ///
    /// ```swift
    /// let all = FetchRequest<TaskItem>()
    /// let open = FetchRequest<TaskItem>(predicate: \.isComplete == false, sortBy: [FetchSortDescriptor(\.name)])
    /// ```
    public init(predicate: FetchPredicate<Result>? = nil, sortBy sortDescriptors: [FetchSortDescriptor<Result>] = []) {
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
    }

    /// A request for objects of the entity named `entityName` (for models loaded from a
    /// document, with `Result` being `ManagedObject`).
    ///
    /// ```swift
    /// let request = FetchRequest<ManagedObject>(entityName: "Task", sortBy: [FetchSortDescriptor(key: "name")])
    /// for task in try context.fetch(request) { print(try task.value(forKey: "name") ?? "") }
    /// ```
    public init(entityName: String, predicate: FetchPredicate<Result>? = nil,
                sortBy sortDescriptors: [FetchSortDescriptor<Result>] = []) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension FetchRequest {
    /// A request whose condition is a Foundation predicate (SwiftData's `#Predicate`), translated
    /// by ``FetchPredicate/init(_:)``; a predicate it cannot translate makes the fetch throw.
    ///
    /// ```swift
    /// let request = FetchRequest<TaskItem>(predicate: #Predicate { $0.isComplete == false && $0.name.contains("milk") },
    ///                                      sortBy: [FetchSortDescriptor(\.due, nils: .last)])
    /// ```
    public init(predicate: Foundation.Predicate<Result>, sortBy sortDescriptors: [FetchSortDescriptor<Result>] = []) {
        self.init(predicate: FetchPredicate(predicate), sortBy: sortDescriptors)
    }

    /// A request with a Foundation predicate and Foundation sort descriptors, as SwiftData's
    /// `FetchDescriptor` takes them (see ``FetchSortDescriptor/init(_:)`` for how they sort).
    ///
    /// ```swift
    /// let request = FetchRequest(predicate: #Predicate<TaskItem> { !$0.isComplete }, sortBy: [SortDescriptor(\.due)])
    /// ```
    public init(predicate: Foundation.Predicate<Result>, sortBy sortDescriptors: [Foundation.SortDescriptor<Result>]) {
        self.init(predicate: FetchPredicate(predicate), sortBy: sortDescriptors.map(FetchSortDescriptor.init))
    }

    /// A request sorted by Foundation sort descriptors (nil first when ascending, as
    /// Foundation sorts), with an optional PersistKit predicate.
    ///
    /// ```swift
    /// let request = FetchRequest<TaskItem>(predicate: \.isComplete == false, sortBy: [SortDescriptor(\.name)])
    /// ```
    public init(predicate: FetchPredicate<Result>? = nil, sortBy sortDescriptors: [Foundation.SortDescriptor<Result>]) {
        self.init(predicate: predicate, sortBy: sortDescriptors.map(FetchSortDescriptor.init))
    }

    /// Replaces the request's predicate with a translated Foundation predicate.
    ///
    /// ```swift
    /// request.setPredicate(#Predicate { $0.due == nil })
    /// ```
    public mutating func setPredicate(_ predicate: Foundation.Predicate<Result>) {
        self.predicate = FetchPredicate(predicate)
    }

    /// Replaces the request's sort with Foundation sort descriptors.
    ///
    /// ```swift
    /// request.setSortDescriptors([SortDescriptor(\.due), SortDescriptor(\.name, order: .reverse)])
    /// ```
    public mutating func setSortDescriptors(_ sortDescriptors: [Foundation.SortDescriptor<Result>]) {
        self.sortDescriptors = sortDescriptors.map(FetchSortDescriptor.init)
    }
}
