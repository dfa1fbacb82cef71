import Foundation

/// Live, sectioned results of a fetch request, with exact incremental diffs.
///
/// ```swift
/// let results = FetchedResultsController(fetchRequest: request, context: context,
///                                        sectionNameKeyPath: \.isComplete)
/// try results.performFetch()
/// let token = results.observe { change in
///     tableView.performBatchUpdates { /* change.deletedRows, insertedRows, movedRows, updatedRows */ }
/// }
/// ```
///
/// The controller works on its context's thread or actor, like the context (a container's
/// `viewContext` is `@MainActor`, so a controller on it is used from the main actor), and it
/// changes only inside the context's ``ManagedObjectContext/processPendingChanges()``. That call
/// (which `save()` and every fetch also run) merges what other contexts and processes saved,
/// then hands the context's observers one notice of everything that changed since the last
/// call; the controller updates its rows from it and, when its results changed, reports one
/// ``ChangeSet``: first to its ``delegate``, then to the ``observe(_:)`` blocks (in the order
/// they were added), then to the ``changes`` sequences. All of it happens before
/// `processPendingChanges()` returns.
///
/// The controller keeps its rows sorted and places only the changed objects again (binary
/// search with the sort's own comparator): k changes cost about O(k log n), not a refetch.
/// It refetches its results and diffs them instead when that is cheaper or needed: with a
/// `fetchLimit` or `fetchOffset` (so the limit holds), after a reset or another process's
/// commit (anything may have changed), and when a notice changes a large part of the results.
///
/// Without a section key the controller always has exactly one section, empty when nothing
/// matches, as `NSFetchedResultsController` has: a list can index section 0 whatever the
/// results, and no change set ever inserts or deletes that section.
///
/// With a ``FetchRequest/fetchBatchSize``, the controller holds each saved row's key and sort
/// values (about 140 bytes a row) instead of its object: ``object(at:)`` makes the objects of
/// the row's batch, and keeps the two batches read last; ``objectID(at:)`` and
/// ``ResultsSection/numberOfObjects`` make none. It reports the same change sets. See
/// <doc:WorkingWithLargeData>.
public final class FetchedResultsController<Result: ManagedObject> {
    /// The request whose results the controller keeps.
    public let fetchRequest: FetchRequest<Result>
    /// The context the controller watches.
    public let context: ManagedObjectContext
    /// The section key's attribute name, nil without sections.
    public let sectionNameKey: String?
    /// Core Data-style callbacks for each change, held weakly.
    ///
    /// Called synchronously inside ``ManagedObjectContext/processPendingChanges()``, before the
    /// ``observe(_:)`` blocks and the ``changes`` sequences get the same change; see
    /// ``FetchedResultsControllerDelegate`` for the order of the calls.
    ///
    /// ```swift
    /// results.delegate = self     // self: a FetchedResultsControllerDelegate with Result == TaskItem
    /// ```
    public weak var delegate: (any FetchedResultsControllerDelegate<Result>)?

    private let sectionKeyError: PersistError?
    /// The resolved request, set by the first successful ``performFetch()``.
    private(set) var plan: ManagedObjectContext.FetchPlan?
    /// What the predicate and sorts read through relationships: changes to those related
    /// objects (a renamed project) make their objects candidates too.
    private(set) var relatedPaths: [ManagedObjectContext.RelationshipPath] = []
    /// The sorted rows and their sections.
    var core = ResultsRows(sorts: [], sectioned: false)
    /// ``sections`` as last built; nil when the rows changed since.
    var cachedSections: [ResultsSection<Result>]?
    /// The sections built before the last change, released by the next read of ``sections``
    /// (see `invalidateSections()`).
    private var retiredSections: [ResultsSection<Result>]?
    private var contextToken: ObservationToken?
    var observers: [Int: (ChangeSet) -> Void] = [:]
    var continuations: [Int: AsyncStream<ChangeSet>.Continuation] = [:]
    private var nextObserverID = 0
    /// The objects of the batches read last (a batched controller): kept alive while they are
    /// likely to be read again; earlier ones go when nothing else holds them.
    var recentBatches: [[ManagedObject]] = []
    /// The request's prefetching, run on each batch as it is made (a batched controller).
    var batchPrefetching: [ManagedObjectContext.PrefetchStep] = []
    /// For a batched controller whose request reads sub-entities, the entity of each saved
    /// row it holds by key (the entities of a tree share keys, so a key names one row).
    var keyEntities: [Int64: EntityDescription] = [:]
    /// The most rows a chunk of the rows holds: the default, or a few in tests so that a few
    /// dozen rows make several chunks. Read by the next ``performFetch()``.
    var rowChunkSize = ResultsRowStore.defaultMaxChunk
    /// How many changes the controller applied in place and how many by a refetch (for tests).
    var updateCounts = (incremental: 0, refetch: 0)

    /// A controller without sections.
    ///
    /// ```swift
    /// let results = FetchedResultsController(fetchRequest: FetchRequest<TaskItem>(sortBy: [FetchSortDescriptor(\.name)]),
    ///                                        context: context)
    /// ```
    public init(fetchRequest: FetchRequest<Result>, context: ManagedObjectContext) {
        self.fetchRequest = fetchRequest
        self.context = context
        sectionNameKey = nil
        sectionKeyError = nil
    }

    /// A controller with a section per value of the attribute `sectionNameKeyPath` names,
    /// which must be the first sort descriptor's attribute; through to-ones, a related
    /// object's attribute (`\.project?.name`: a section per project name, "" for none).
    ///
    /// ```swift
    /// let request = FetchRequest<TaskItem>(sortBy: [FetchSortDescriptor(\.isComplete), FetchSortDescriptor(\.name)])
    /// let results = FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: \.isComplete)
    /// ```
    public init<Value: AttributeValue>(fetchRequest: FetchRequest<Result>, context: ManagedObjectContext,
                                       sectionNameKeyPath: KeyPath<Result, Value>) {
        self.fetchRequest = fetchRequest
        self.context = context
        switch FetchPredicate<Result>.attributeKey(sectionNameKeyPath) {
        case .success(let (key, _)):
            sectionNameKey = key
            sectionKeyError = nil
        case .failure(let error):
            sectionNameKey = FetchPredicate<Result>.describe(sectionNameKeyPath)
            sectionKeyError = PersistError(.misuse, "The section key path is not an attribute: " + error.message,
                                           entity: error.entity, attribute: error.attribute)
        }
    }

    /// A controller with sections by an attribute named by a string (for document models), or
    /// by a key path through to-ones (`"project.name"`).
    ///
    /// ```swift
    /// let request = FetchRequest<ManagedObject>(entityName: "Task", sortBy: [FetchSortDescriptor(key: "isComplete")])
    /// let results = FetchedResultsController(fetchRequest: request, context: context, sectionNameKey: "isComplete")
    /// ```
    public init(fetchRequest: FetchRequest<Result>, context: ManagedObjectContext, sectionNameKey: String?) {
        self.fetchRequest = fetchRequest
        self.context = context
        self.sectionNameKey = sectionNameKey
        sectionKeyError = nil
    }

    deinit {
        for continuation in continuations.values { continuation.finish() }
    }

    // MARK: Fetching

    /// Fetches the results and starts watching the context.
    ///
    /// It first runs the context's ``ManagedObjectContext/processPendingChanges()`` (so changes
    /// made before are reported to whoever already watches), then replaces the results. It
    /// reports no change set: read ``sections`` afterwards. Calling it again refetches.
    ///
    /// ```swift
    /// try results.performFetch()
    /// print(results.sections.map(\.numberOfObjects))    // [12, 30]
    /// ```
    ///
    /// - Throws: ``PersistError`` `.misuse` when the request has no sort descriptor, or the
    ///   first one is not on the section key; any fetch error.
    public func performFetch() throws {
        if let sectionKeyError { throw sectionKeyError }
        guard let first = fetchRequest.sortDescriptors.first else {
            throw PersistError(.misuse, "A results controller needs at least one sort descriptor")
        }
        if let sectionNameKey, first.key != sectionNameKey {
            throw PersistError(.misuse,
                "The first sort descriptor of a sectioned results controller must be on its section key \(sectionNameKey), not \(first.key)",
                attribute: sectionNameKey)
        }
        context.processPendingChanges()
        let plan = try context.plan(fetchRequest)
        let rows = ResultsRows(sorts: plan.sorts, sectioned: sectionNameKey != nil, keyed: fetchRequest.fetchBatchSize > 0,
                               maxChunk: rowChunkSize)
        if rows.keyed {
            // Keys and sort values only: objects are made a batch at a time as rows are read,
            // and each batch's relationships prefetched then.
            batchPrefetching = try context.prefetchSteps(fetchRequest.relationshipKeyPathsForPrefetching, entity: plan.entity)
            try fetchRows(plan, into: rows)
        } else {
            let prefetching = try context.prefetchSteps(fetchRequest.relationshipKeyPathsForPrefetching, entity: plan.entity)
            let objects = try context.fetchObjects(plan, includesPendingChanges: fetchRequest.includesPendingChanges)
            try context.prefetch(prefetching, for: objects)
            rows.reset(objects)
        }
        relatedPaths = try context.relatedPaths(predicate: fetchRequest.predicate?.node, sorts: plan.sorts, entity: plan.entity)
        self.plan = plan
        core = rows
        recentBatches = []
        cachedSections = nil
        retiredSections = nil
        if contextToken == nil {
            contextToken = context.addObserver { [weak self] notice in
                self?.contextDidChange(notice)
            }
        }
    }

    /// Forgets ``sections`` after a change without releasing them now: they hold each object
    /// once more, and releasing that is O(n), so it is left to the next read of ``sections``
    /// (O(n) anyway), not paid by every change.
    func invalidateSections() {
        guard let built = cachedSections else { return }
        retiredSections = built
        cachedSections = nil
    }

    // MARK: Reading

    /// Every object, in order.
    ///
    /// A batched controller (its request has a ``FetchRequest/fetchBatchSize``) makes every
    /// object to answer this: read rows with ``object(at:)`` instead to keep memory bounded.
    ///
    /// ```swift
    /// let names = results.fetchedObjects.map(\.name)
    /// ```
    public var fetchedObjects: [Result] { objects(of: core.rows.array[...]).map { unsafeDowncast($0, to: Result.self) } }

    /// The sections, in order.
    ///
    /// With a section key, one section per distinct value of the key among the results (none
    /// when nothing matches). Without one, always exactly one section, named `""`, holding every
    /// object, possibly none.
    ///
    /// ```swift
    /// let rows = results.sections[section].numberOfObjects   // tableView(_:numberOfRowsInSection:)
    /// let title = results.sections[section].name
    /// ```
    public var sections: [ResultsSection<Result>] {
        if let cachedSections { return cachedSections }
        retiredSections = nil
        var result: [ResultsSection<Result>] = []
        let starts = core.sectionStarts, rows = core.rows
        for (index, key) in core.sectionKeys.enumerated() {
            let start = starts[index]
            let end = index + 1 < starts.count ? starts[index + 1] : rows.count
            let name = sectionName(key)
            let title = name.first.map { String($0).uppercased() }
            let entries = rows.slice(start..<end)
            if core.keyed {
                result.append(ResultsSection(name: name, indexTitle: title, count: entries.count) { [weak self] in
                    self?.objects(of: entries).map { unsafeDowncast($0, to: Result.self) } ?? []
                })
            } else {
                result.append(ResultsSection(name: name, indexTitle: title, objects: objects(of: entries).map { unsafeDowncast($0, to: Result.self) }))
            }
        }
        cachedSections = result
        return result
    }

    /// The index titles of the sections (each section's ``ResultsSection/indexTitle``).
    ///
    /// ```swift
    /// func sectionIndexTitles(for tableView: UITableView) -> [String]? { results.sectionIndexTitles }
    /// ```
    public var sectionIndexTitles: [String] { sections.compactMap(\.indexTitle) }

    /// The object at an index path; nil when the path is out of range.
    ///
    /// ```swift
    /// guard let task = results.object(at: IndexPath(item: row, section: section)) else { return }
    /// ```
    public func object(at indexPath: IndexPath) -> Result? {
        core.flat(indexPath).map { unsafeDowncast(rowObject($0), to: Result.self) }
    }

    /// The ID of the object at an index path, without making the object (a batched controller
    /// holds saved objects' keys only); nil when the path is out of range.
    ///
    /// ```swift
    /// let id = results.objectID(at: IndexPath(item: 0, section: 0))   // hand it to another context
    /// ```
    public func objectID(at indexPath: IndexPath) -> ObjectID? {
        core.flat(indexPath).map(rowObjectID)
    }

    /// The index path of an object; nil when it is not in the results.
    ///
    /// ```swift
    /// if let path = results.indexPath(forObject: task) { tableView.scrollToRow(at: path, at: .middle, animated: true) }
    /// ```
    public func indexPath(forObject object: Result) -> IndexPath? {
        guard let flat = core.position(of: object) else { return nil }
        return core.path(forFlat: flat)
    }

    // MARK: Observing

    /// Calls `body` with each ``ChangeSet``, synchronously inside the context's
    /// ``ManagedObjectContext/processPendingChanges()``, once per call that changed the results.
    ///
    /// The blocks run after the ``delegate`` heard of the change, in the order they were added;
    /// the controller already holds the new results. Changes made inside a block (a save, an
    /// edit) are reported by the next `processPendingChanges()`, never as a nested change.
    ///
    /// ```swift
    /// let token = results.observe { change in
    ///     tableView.performBatchUpdates {
    ///         tableView.deleteSections(change.deletedSections, with: .fade)
    ///         tableView.insertSections(change.insertedSections, with: .fade)
    ///         tableView.deleteRows(at: change.deletedRows, with: .automatic)
    ///         tableView.insertRows(at: change.insertedRows, with: .automatic)
    ///         for move in change.movedRows { tableView.moveRow(at: move.from, to: move.to) }
    ///     }
    /// }
    /// ```
    ///
    /// - Returns: A token that keeps the observation alive: cancel it or let it go to stop.
    public func observe(_ body: @escaping (ChangeSet) -> Void) -> ObservationToken {
        let id = nextObserverID
        nextObserverID += 1
        observers[id] = body
        return ObservationToken { [weak self] in self?.observers[id] = nil }
    }

    /// The same change sets as ``observe(_:)``, as an asynchronous sequence: each is buffered
    /// when the controller reports it (after the delegate and the `observe` blocks), and the
    /// sequence ends when the controller goes away.
    ///
    /// ```swift
    /// for await change in results.changes {
    ///     print(change.insertedRows.count, "rows inserted")
    /// }
    /// ```
    public var changes: AsyncStream<ChangeSet> {
        let id = nextObserverID
        nextObserverID += 1
        let (stream, continuation) = AsyncStream<ChangeSet>.makeStream(bufferingPolicy: .unbounded)
        continuations[id] = continuation
        return stream
    }
}
