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
    private var contextToken: ObservationToken?
    var observers: [Int: (ChangeSet) -> Void] = [:]
    var continuations: [Int: AsyncStream<ChangeSet>.Continuation] = [:]
    private var nextObserverID = 0
    /// How many changes the controller applied in place and how many by a refetch (for tests).
    var updateCounts = (incremental: 0, refetch: 0)

    /// A controller without sections.
    public init(fetchRequest: FetchRequest<Result>, context: ManagedObjectContext) {
        self.fetchRequest = fetchRequest
        self.context = context
        sectionNameKey = nil
        sectionKeyError = nil
    }

    /// A controller with a section per value of the attribute `sectionNameKeyPath` names,
    /// which must be the first sort descriptor's attribute; through to-ones, a related
    /// object's attribute (`\.project?.name`: a section per project name, "" for none).
    public init<Value: AttributeValue>(fetchRequest: FetchRequest<Result>, context: ManagedObjectContext,
                                       sectionNameKeyPath: KeyPath<Result, Value>) {
        self.fetchRequest = fetchRequest
        self.context = context
        switch FetchPredicate<Result>.attributeKey(sectionNameKeyPath) {
        case .success(let (key, _)):
            sectionNameKey = key
            sectionKeyError = nil
        case .failure(let error):
            sectionNameKey = "\(sectionNameKeyPath)"
            sectionKeyError = PersistError(.misuse, "The section key path is not an attribute: " + error.message)
        }
    }

    /// A controller with sections by an attribute named by a string (for document models), or
    /// by a key path through to-ones (`"project.name"`).
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
        let prefetching = try context.prefetchSteps(fetchRequest.relationshipKeyPathsForPrefetching, entity: plan.entity)
        let objects = try context.fetchObjects(plan, includesPendingChanges: fetchRequest.includesPendingChanges)
        try context.prefetch(prefetching, for: objects)
        relatedPaths = try context.relatedPaths(predicate: fetchRequest.predicate?.node, sorts: plan.sorts, entity: plan.entity)
        self.plan = plan
        core = ResultsRows(sorts: plan.sorts, sectioned: sectionNameKey != nil)
        core.reset(objects)
        cachedSections = nil
        if contextToken == nil {
            contextToken = context.addObserver { [weak self] notice in
                self?.contextDidChange(notice)
            }
        }
    }

    // MARK: Reading

    /// Every object, in order.
    public var fetchedObjects: [Result] { core.rows.map { unsafeDowncast($0.object, to: Result.self) } }

    /// The sections, in order.
    ///
    /// With a section key, one section per distinct value of the key among the results (none
    /// when nothing matches). Without one, always exactly one section, named `""`, holding every
    /// object, possibly none.
    public var sections: [ResultsSection<Result>] {
        if let cachedSections { return cachedSections }
        var result: [ResultsSection<Result>] = []
        let starts = core.sectionStarts, rows = core.rows
        for (index, key) in core.sectionKeys.enumerated() {
            let start = starts[index]
            let end = index + 1 < starts.count ? starts[index + 1] : rows.count
            let name = sectionName(key)
            result.append(ResultsSection(name: name, indexTitle: name.first.map { String($0).uppercased() },
                                         objects: rows[start..<end].map { unsafeDowncast($0.object, to: Result.self) }))
        }
        cachedSections = result
        return result
    }

    /// The index titles of the sections (each section's ``ResultsSection/indexTitle``).
    public var sectionIndexTitles: [String] { sections.compactMap(\.indexTitle) }

    /// The object at an index path; nil when the path is out of range.
    public func object(at indexPath: IndexPath) -> Result? {
        core.flat(indexPath).map { unsafeDowncast(core.rows[$0].object, to: Result.self) }
    }

    /// The index path of an object; nil when it is not in the results.
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
    public var changes: AsyncStream<ChangeSet> {
        let id = nextObserverID
        nextObserverID += 1
        let (stream, continuation) = AsyncStream<ChangeSet>.makeStream(bufferingPolicy: .unbounded)
        continuations[id] = continuation
        return stream
    }
}
