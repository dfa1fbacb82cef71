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
    private var rows: [ResultsRow<Result>] = []
    private var placed: [ObjectIdentifier: SortKeys] = [:]
    /// Section key values and the flat index each section starts at.
    private var sectionKeys: [SQLValue] = []
    private var sectionStarts: [Int] = []
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
        switch Predicate<Result>.attributeName(sectionNameKeyPath) {
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
        rows = objects.map { ResultsRow(object: unsafeDowncast($0, to: Result.self), keys: SortKeys($0.storage, sorts: plan.sorts)) }
        placed = Dictionary(minimumCapacity: rows.count)
        for row in rows { placed[ObjectIdentifier(row.object)] = row.keys }
        rebuildSections()
        if contextToken == nil {
            contextToken = context.addObserver { [weak self] notice in
                self?.contextDidChange(notice)
            }
        }
    }

    // MARK: Reading

    /// Every object, in order.
    public var fetchedObjects: [Result] { rows.map(\.object) }

    /// The sections, in order; one section holding every object when there is no section key.
    public var sections: [ResultsSection<Result>] {
        if let cachedSections { return cachedSections }
        var result: [ResultsSection<Result>] = []
        for index in sectionKeys.indices {
            let start = sectionStarts[index]
            let end = index + 1 < sectionStarts.count ? sectionStarts[index + 1] : rows.count
            let name = sectionName(sectionKeys[index])
            result.append(ResultsSection(name: name, indexTitle: name.first.map { String($0).uppercased() },
                                         objects: rows[start..<end].map(\.object)))
        }
        cachedSections = result
        return result
    }

    /// The index titles of the sections (each section's ``ResultsSection/indexTitle``).
    public var sectionIndexTitles: [String] { sections.compactMap(\.indexTitle) }

    /// The object at an index path; nil when the path is out of range.
    public func object(at indexPath: IndexPath) -> Result? {
        guard indexPath.count == 2 else { return nil }
        let section = indexPath[0], item = indexPath[1]
        guard section >= 0, section < sectionStarts.count, item >= 0 else { return nil }
        let flat = sectionStarts[section] + item
        let end = section + 1 < sectionStarts.count ? sectionStarts[section + 1] : rows.count
        return flat < end ? rows[flat].object : nil
    }

    /// The index path of an object; nil when it is not in the results.
    public func indexPath(forObject object: Result) -> IndexPath? {
        guard let flat = position(of: object) else { return nil }
        return path(forFlat: flat, starts: sectionStarts)
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
        var removedObjects: [Result] = []
        var addedObjects: [Result] = []
        var replacedObjects: [Result] = []      // updated, leaving and re-entering at a new place
        var inPlaceObjects: [Result] = []       // updated, sort keys unchanged
        let entity = plan.entity
        var seen = Set<ObjectIdentifier>()
        for object in notice.deleted where object.entity === entity && seen.insert(ObjectIdentifier(object)).inserted {
            if placed[ObjectIdentifier(object)] != nil { removedObjects.append(unsafeDowncast(object, to: Result.self)) }
        }
        for object in notice.inserted where object.entity === entity && !object.deletedFlag
            && seen.insert(ObjectIdentifier(object)).inserted {
            if placed[ObjectIdentifier(object)] == nil && plan.matches(object) {
                addedObjects.append(unsafeDowncast(object, to: Result.self))
            }
        }
        for (object, _) in notice.updated where object.entity === entity && seen.insert(ObjectIdentifier(object)).inserted {
            let id = ObjectIdentifier(object)
            let typed = unsafeDowncast(object, to: Result.self)
            let matches = !object.deletedFlag && object.managedObjectContext === context && plan.matches(object)
            switch (placed[id], matches) {
            case (let keys?, true):
                if keys.matches(object.storage, sorts: plan.sorts) { inPlaceObjects.append(typed) } else { replacedObjects.append(typed) }
            case (_?, false): removedObjects.append(typed)
            case (nil, true): addedObjects.append(typed)
            case (nil, false): break
            }
        }
        guard !removedObjects.isEmpty || !addedObjects.isEmpty || !replacedObjects.isEmpty || !inPlaceObjects.isEmpty else { return }

        let sorts = plan.sorts
        let oldLayout = layout()
        let oldStarts = sectionStarts
        let removedPositions = removedObjects.compactMap(position)
        let replacedOld = replacedObjects.compactMap(position)
        let inPlaceOld = inPlaceObjects.compactMap(position)
        guard removedPositions.count == removedObjects.count, replacedOld.count == replacedObjects.count,
              inPlaceOld.count == inPlaceObjects.count else {
            // The rows no longer agree with what was placed: never guess, refetch.
            refetchAndDiff(notice, plan: plan)
            return
        }
        let deletedRows = (removedPositions + replacedOld).map { (rows[$0].object, path(forFlat: $0, starts: oldStarts)) }

        // Take out removed and replaced rows; put in added and replaced rows at their new places.
        let outgoing = (removedPositions + replacedOld).sorted()
        let incoming = (addedObjects + replacedObjects).map { ResultsRow(object: $0, keys: SortKeys($0.storage, sorts: sorts)) }
            .sorted { ResolvedSort.compare($0, $1, sorts: sorts) < 0 }
        for object in removedObjects { placed[ObjectIdentifier(object)] = nil }
        for position in inPlaceOld {
            // Same keys; other attributes changed: keep the row, refresh nothing but the snapshot.
            placed[ObjectIdentifier(rows[position].object)] = rows[position].keys
        }
        if outgoing.count + incoming.count <= 16 {
            for position in outgoing.reversed() { rows.remove(at: position) }
            for row in incoming {
                rows.insert(row, at: lowerBound(row.keys, row.object.objectID, sorts: sorts))
            }
        } else {
            rows = merged(removing: outgoing, adding: incoming, sorts: sorts)
        }
        for row in incoming { placed[ObjectIdentifier(row.object)] = row.keys }
        rebuildSections(affectedKeys: incoming.map { $0.keys[0] })

        var updated: [(old: Int, new: Int)] = []
        for (object, old) in zip(replacedObjects, replacedOld) { updated.append((old, position(of: object) ?? 0)) }
        for (object, old) in zip(inPlaceObjects, inPlaceOld) { updated.append((old, position(of: object) ?? 0)) }
        let input = ResultsDiffInput(old: oldLayout, new: layout(), removed: removedPositions,
                                     inserted: addedObjects.map { position(of: $0) ?? 0 }, updated: updated)
        deliver(ResultsDiff.changeSet(for: input), deletedObjects: Dictionary(deletedRows.map { ($0.1, $0.0 as ManagedObject) }, uniquingKeysWith: { a, _ in a }), oldRows: nil)
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
        let oldRows = rows
        let oldLayout = layout()
        let oldStarts = sectionStarts
        let updatedIDs = Set(notice.updated.map { $0.object.objectID })
        var oldIndex: [ObjectID: Int] = [:]
        for (index, row) in oldRows.enumerated() { oldIndex[row.object.objectID] = index }
        rows = objects.map { ResultsRow(object: unsafeDowncast($0, to: Result.self), keys: SortKeys($0.storage, sorts: plan.sorts)) }
        placed = Dictionary(minimumCapacity: rows.count)
        for row in rows { placed[ObjectIdentifier(row.object)] = row.keys }
        rebuildSections()
        var removed: [Int] = []
        var inserted: [Int] = []
        var updated: [(old: Int, new: Int)] = []
        var survivors = Set<Int>()
        for (newIndex, row) in rows.enumerated() {
            guard let old = oldIndex[row.object.objectID] else {
                inserted.append(newIndex)
                continue
            }
            survivors.insert(old)
            let oldObject = oldRows[old].object
            let changed = updatedIDs.contains(row.object.objectID)
                || oldObject !== row.object   // the row now shows another instance (after a reset)
                || !oldRows[old].keys.matches(row.object.storage, sorts: plan.sorts)
            if changed { updated.append((old, newIndex)) }
        }
        for index in oldRows.indices where !survivors.contains(index) { removed.append(index) }
        let input = ResultsDiffInput(old: oldLayout, new: layout(), removed: removed, inserted: inserted, updated: updated)
        var deletedObjects: [IndexPath: ManagedObject] = [:]
        for index in removed { deletedObjects[path(forFlat: index, starts: oldStarts)] = oldRows[index].object }
        deliver(ResultsDiff.changeSet(for: input), deletedObjects: deletedObjects, oldRows: oldRows)
    }

    private func deliver(_ change: ChangeSet, deletedObjects: [IndexPath: ManagedObject], oldRows: [ResultsRow<Result>]?) {
        guard !change.isEmpty else { return }
        cachedSections = nil
        if let delegate {
            delegate.controllerWillChangeContent(self)
            for index in change.deletedSections {
                delegate.controller(self, didChangeSectionNamed: "", atSectionIndex: index, for: .delete)
            }
            for index in change.insertedSections where index < sectionKeys.count {
                delegate.controller(self, didChangeSectionNamed: sectionName(sectionKeys[index]), atSectionIndex: index, for: .insert)
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

    // MARK: Rows and sections

    /// The flat position of a placed object: binary search by the keys it was placed with,
    /// checked; nil when it is not there.
    private func position(of object: Result) -> Int? {
        guard let plan, let keys = placed[ObjectIdentifier(object)] else { return nil }
        let found = lowerBound(keys, object.objectID, sorts: plan.sorts)
        if found < rows.count, rows[found].object === object { return found }
        return rows.firstIndex { $0.object === object }
    }

    /// The first flat position whose row does not sort before (keys, id).
    private func lowerBound(_ keys: SortKeys, _ id: ObjectID, sorts: [ResolvedSort]) -> Int {
        var low = 0, high = rows.count
        while low < high {
            let mid = (low + high) / 2
            if ResolvedSort.compare(rows[mid].keys, rows[mid].object.objectID, keys, id, sorts: sorts) < 0 {
                low = mid + 1
            } else {
                high = mid
            }
        }
        return low
    }

    /// The rows with `outgoing` positions removed and `incoming` (sorted) merged in: O(n).
    private func merged(removing outgoing: [Int], adding incoming: [ResultsRow<Result>], sorts: [ResolvedSort]) -> [ResultsRow<Result>] {
        var result: [ResultsRow<Result>] = []
        result.reserveCapacity(rows.count - outgoing.count + incoming.count)
        var skip = 0, next = 0
        for (position, row) in rows.enumerated() {
            if skip < outgoing.count && outgoing[skip] == position {
                skip += 1
                continue
            }
            while next < incoming.count && ResolvedSort.compare(incoming[next], row, sorts: sorts) < 0 {
                result.append(incoming[next])
                next += 1
            }
            result.append(row)
        }
        while next < incoming.count {
            result.append(incoming[next])
            next += 1
        }
        return result
    }

    /// Finds section boundaries by binary search on the section key (the first sort key).
    private func rebuildSections(affectedKeys: [SQLValue]? = nil) {
        cachedSections = nil
        guard let plan else { return }
        guard sectionNameKey != nil, let first = plan.sorts.first else {
            sectionKeys = rows.isEmpty ? [] : [.null]
            sectionStarts = rows.isEmpty ? [] : [0]
            return
        }
        var candidates: [SQLValue]
        if let affectedKeys {
            candidates = sectionKeys + affectedKeys
        } else {
            // A full scan: after a fetch, or a refetch.
            candidates = []
            var previous: SQLValue?
            for row in rows where previous.map({ first.compare($0, row.keys[0]) != 0 }) ?? true {
                candidates.append(row.keys[0])
                previous = row.keys[0]
            }
        }
        candidates.sort { first.compare($0, $1) < 0 }
        var keys: [SQLValue] = [], starts: [Int] = []
        for key in candidates {
            if let last = keys.last, first.compare(last, key) == 0 { continue }
            let start = boundary(first, key, strictlyAfter: false)
            let end = boundary(first, key, strictlyAfter: true)
            if end > start {
                keys.append(key)
                starts.append(start)
            }
        }
        sectionKeys = keys
        sectionStarts = starts
    }

    private func boundary(_ sort: ResolvedSort, _ key: SQLValue, strictlyAfter: Bool) -> Int {
        var low = 0, high = rows.count
        while low < high {
            let mid = (low + high) / 2
            let order = sort.compare(rows[mid].keys[0], key)
            if order < 0 || (strictlyAfter && order == 0) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func layout() -> SectionLayout {
        SectionLayout(names: sectionKeys.map(Self.identity), starts: sectionStarts, count: rows.count)
    }

    private func path(forFlat position: Int, starts: [Int]) -> IndexPath {
        var low = 0, high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= position { low = mid + 1 } else { high = mid }
        }
        let section = max(0, low - 1)
        return IndexPath(indexes: [section, position - (starts.isEmpty ? 0 : starts[section])])
    }

    /// A section's identity for diffing: its key value, tagged by storage class so that no two
    /// values share one.
    private static func identity(_ key: SQLValue) -> String {
        switch key {
        case .null: return "n"
        case .integer(let v): return "i\(v)"
        case .real(let v): return "r\(v.bitPattern)"
        case .text(let v): return "t" + v
        case .blob(let v): return "b" + v.base64EncodedString()
        }
    }

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
