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
/// The controller keeps its rows sorted and, at each ``ManagedObjectContext/processPendingChanges()``
/// that changed them, places only the changed objects again (binary search with the sort's own
/// comparator) and reports one ``ChangeSet``: k changes cost about O(k log n), not a refetch.
/// With a `fetchLimit` or `fetchOffset` it refetches its window instead, so the limit holds.
public final class FetchedResultsController<Result: ManagedObject> {
    /// The request whose results the controller keeps.
    public let fetchRequest: FetchRequest<Result>
    /// The context the controller watches.
    public let context: ManagedObjectContext
    /// The section key's attribute name, nil without sections.
    public let sectionNameKey: String?
    /// Core Data-style callbacks, called inside each change after the ``observe(_:)`` blocks.
    public weak var delegate: FetchedResultsControllerDelegate?

    private let sectionKeyError: PersistError?
    private var plan: ManagedObjectContext.FetchPlan?
    private(set) var core = ResultsRows(sorts: [], sectioned: false)
    private var cachedSections: [ResultsSection<Result>]?
    private var contextToken: ObservationToken?
    private var observers: [Int: (ChangeSet) -> Void] = [:]
    private var continuations: [Int: AsyncStream<ChangeSet>.Continuation] = [:]
    private var nextObserverID = 0

    /// A controller without sections.
    public init(fetchRequest: FetchRequest<Result>, context: ManagedObjectContext) {
        self.fetchRequest = fetchRequest
        self.context = context
        sectionNameKey = nil
        sectionKeyError = nil
    }

    /// A controller with a section per value of the attribute `sectionNameKeyPath` names,
    /// which must be the first sort descriptor's attribute.
    public init<Value: AttributeValue>(fetchRequest: FetchRequest<Result>, context: ManagedObjectContext,
                                       sectionNameKeyPath: KeyPath<Result, Value>) {
        self.fetchRequest = fetchRequest
        self.context = context
        switch FetchPredicate<Result>.attributeName(sectionNameKeyPath) {
        case .success(let attribute):
            sectionNameKey = attribute.name
            sectionKeyError = nil
        case .failure(let error):
            sectionNameKey = "\(sectionNameKeyPath)"
            sectionKeyError = PersistError(.misuse, "The section key path is not an attribute: " + error.message)
        }
    }

    /// A controller with sections by an attribute named by a string (for document models).
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
        let objects = try context.fetchObjects(plan, includesPendingChanges: fetchRequest.includesPendingChanges)
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

    /// The sections, in order; one section holding every object when there is no section key.
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
    /// `processPendingChanges()`, once per call that changed the results.
    public func observe(_ body: @escaping (ChangeSet) -> Void) -> ObservationToken {
        let id = nextObserverID
        nextObserverID += 1
        observers[id] = body
        return ObservationToken { [weak self] in self?.observers[id] = nil }
    }

    /// The same change sets as ``observe(_:)``, as an asynchronous sequence.
    public var changes: AsyncStream<ChangeSet> {
        let id = nextObserverID
        nextObserverID += 1
        let (stream, continuation) = AsyncStream<ChangeSet>.makeStream(bufferingPolicy: .unbounded)
        continuations[id] = continuation
        return stream
    }

    // MARK: Applying changes

    private func contextDidChange(_ notice: ContextChanges) {
        guard let plan else { return }
        if notice.invalidatedAll || plan.limit > 0 || plan.offset > 0 {
            refetchAndDiff(notice, plan: plan)
            return
        }
        var removedObjects: [ManagedObject] = []
        var addedObjects: [ManagedObject] = []
        var replacedObjects: [ManagedObject] = []      // updated, leaving and re-entering at a new place
        var inPlaceObjects: [ManagedObject] = []       // updated, sort keys unchanged
        // Each object once, decided by state alone (placed here? matching now?), whichever
        // list the notice put it in: robust to any mix of insert, update and delete.
        let entity = plan.entity
        var seen = Set<ObjectIdentifier>()
        let candidates = notice.deleted + notice.inserted + notice.updated.map(\.object)
        for object in candidates where object.entity === entity && seen.insert(ObjectIdentifier(object)).inserted {
            let matches = !object.deletedFlag && object.managedObjectContext === context && plan.matches(object)
            switch (core.isPlaced(object), matches) {
            case (true, true):
                if core.keepsItsPlace(object) { inPlaceObjects.append(object) } else { replacedObjects.append(object) }
            case (true, false): removedObjects.append(object)
            case (false, true): addedObjects.append(object)
            case (false, false): break
            }
        }
        guard !removedObjects.isEmpty || !addedObjects.isEmpty || !replacedObjects.isEmpty || !inPlaceObjects.isEmpty else { return }

        let oldLayout = core.layout()
        let oldStarts = core.sectionStarts
        let removedPositions = removedObjects.compactMap(core.position)
        let replacedOld = replacedObjects.compactMap(core.position)
        let inPlaceOld = inPlaceObjects.compactMap(core.position)
        guard removedPositions.count == removedObjects.count, replacedOld.count == replacedObjects.count,
              inPlaceOld.count == inPlaceObjects.count else {
            // The rows no longer agree with what was placed: never guess, refetch.
            refetchAndDiff(notice, plan: plan)
            return
        }
        var deletedObjects: [IndexPath: ManagedObject] = [:]
        for position in removedPositions + replacedOld {
            deletedObjects[core.path(forFlat: position, starts: oldStarts)] = core.rows[position].object
        }

        // Take out removed and replaced rows; put in added and replaced rows at their new places.
        let newPositions = core.apply(outgoing: (removedPositions + replacedOld).sorted(), removing: removedObjects,
                                      incoming: addedObjects + replacedObjects)
        cachedSections = nil
        func newPosition(_ object: ManagedObject) -> Int {
            newPositions[ObjectIdentifier(object)] ?? core.position(of: object) ?? 0
        }

        var updated: [(old: Int, new: Int)] = []
        for (object, old) in zip(replacedObjects, replacedOld) { updated.append((old, newPosition(object))) }
        for (object, old) in zip(inPlaceObjects, inPlaceOld) { updated.append((old, core.position(of: object) ?? 0)) }
        let input = ResultsDiffInput(old: oldLayout, new: core.layout(), removed: removedPositions,
                                     inserted: addedObjects.map(newPosition), updated: updated)
        deliver(ResultsDiff.changeSet(for: input), deletedObjects: deletedObjects)
    }

    /// For windows (limit, offset) and after a reset or another process's changes: fetch again
    /// and compare by object ID.
    private func refetchAndDiff(_ notice: ContextChanges, plan: ManagedObjectContext.FetchPlan) {
        let objects: [ManagedObject]
        do {
            objects = try context.fetchObjects(plan, includesPendingChanges: fetchRequest.includesPendingChanges)
        } catch {
            return   // the store cannot be read now; the next change tries again
        }
        let oldRows = core.rows
        let oldLayout = core.layout()
        let oldStarts = core.sectionStarts
        let updatedIDs = Set(notice.updated.map { $0.object.objectID })
        var oldIndex: [ObjectID: Int] = [:]
        for (index, row) in oldRows.enumerated() { oldIndex[row.object.objectID] = index }
        core.reset(objects)
        cachedSections = nil
        var removed: [Int] = []
        var inserted: [Int] = []
        var updated: [(old: Int, new: Int)] = []
        var survivors = Set<Int>()
        for (newIndex, row) in core.rows.enumerated() {
            guard let old = oldIndex[row.object.objectID] else {
                inserted.append(newIndex)
                continue
            }
            survivors.insert(old)
            let changed = updatedIDs.contains(row.object.objectID)
                || oldRows[old].object !== row.object   // the row now shows another instance (after a reset)
                || !oldRows[old].keysMatch(row.object.storage, sorts: plan.sorts)
            if changed { updated.append((old, newIndex)) }
        }
        for index in oldRows.indices where !survivors.contains(index) { removed.append(index) }
        let input = ResultsDiffInput(old: oldLayout, new: core.layout(), removed: removed, inserted: inserted, updated: updated)
        var deletedObjects: [IndexPath: ManagedObject] = [:]
        for index in removed { deletedObjects[core.path(forFlat: index, starts: oldStarts)] = oldRows[index].object }
        deliver(ResultsDiff.changeSet(for: input), deletedObjects: deletedObjects)
    }

    private func deliver(_ change: ChangeSet, deletedObjects: [IndexPath: ManagedObject]) {
        guard !change.isEmpty else { return }
        cachedSections = nil
        if let delegate {
            delegate.controllerWillChangeContent(self)
            for index in change.deletedSections {
                delegate.controller(self, didChangeSectionNamed: "", atSectionIndex: index, for: .delete)
            }
            for index in change.insertedSections where index < core.sectionKeys.count {
                delegate.controller(self, didChangeSectionNamed: sectionName(core.sectionKeys[index]), atSectionIndex: index, for: .insert)
            }
            for path in change.deletedRows {
                if let object = deletedObjects[path] {
                    delegate.controller(self, didChange: object, at: path, for: .delete, newIndexPath: nil)
                }
            }
            for path in change.insertedRows {
                if let object = object(at: path) { delegate.controller(self, didChange: object, at: nil, for: .insert, newIndexPath: path) }
            }
            for move in change.movedRows {
                if let object = object(at: move.to) { delegate.controller(self, didChange: object, at: move.from, for: .move, newIndexPath: move.to) }
            }
            for update in change.updatedRows {
                if let object = object(at: update.to) { delegate.controller(self, didChange: object, at: update.from, for: .update, newIndexPath: update.to) }
            }
            delegate.controllerDidChangeContent(self)
        }
        for id in observers.keys.sorted() { observers[id]?(change) }
        for continuation in continuations.values { continuation.yield(change) }
    }

    // MARK: Section names

    private func sectionName(_ key: SQLValue) -> String {
        guard let name = sectionNameKey, let attribute = plan?.entity.attribute(named: name) else { return "" }
        if key.isNull { return "" }
        switch attribute.type {
        case .boolean: return Bool(storedValue: key).map { $0 ? "true" : "false" } ?? key.description
        case .date:
            guard let date = Date(storedValue: key) else { return key.description }
            return ISO8601DateFormatter().string(from: date)
        case .uuid: return UUID(storedValue: key)?.uuidString ?? key.description
        case .binary:
            if case .blob(let data) = key { return data.base64EncodedString() }
            return key.description
        default:
            switch key {
            case .text(let text): return text
            case .integer(let value): return String(value)
            case .real(let value): return String(value)
            default: return key.description
            }
        }
    }
}
