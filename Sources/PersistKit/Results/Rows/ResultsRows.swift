/// A results controller's sorted rows and sections, and the algorithms that keep them: binary
/// search, merge, section boundaries. Not generic, so the compiler specializes every loop (the
/// generic controller only casts objects on the way out).
final class ResultsRows {
    let sorts: [ResolvedSort]
    let sectioned: Bool
    /// Whether saved rows keep their key and sort values instead of their object (a batched
    /// controller): objects are made when read, and sorts through to-ones read real values.
    let keyed: Bool
    /// The rows in order, chunked so a change moves a few hundred rows, not all.
    private(set) var rows: ResultsRowStore
    /// Each placed row, by its held object and (keyed rows) by saved key: how a changed object
    /// is found again. Built on the first change, not by the fetch: a controller whose results
    /// never change never pays for it.
    private var placedIndex = ResultsPlacedIndex()
    private var placedKeyIndex = ResultsPlacedIndex()
    /// Whether `placedIndex` (and, for keyed rows, `placedKeyIndex`) holds every row.
    private var indexesBuilt = false
    /// Section key values and the flat index each section starts at.
    private(set) var sectionKeys: [SQLValue] = []
    private(set) var sectionStarts: [Int] = []

    /// The most rows a chunk of `rows` holds (small in tests, to exercise chunking).
    let maxChunk: Int

    init(sorts: [ResolvedSort], sectioned: Bool, keyed: Bool = false, maxChunk: Int = ResultsRowStore.defaultMaxChunk) {
        self.maxChunk = maxChunk
        self.sorts = sorts
        self.sectioned = sectioned
        self.keyed = keyed
        rows = ResultsRowStore(maxChunk: maxChunk)
    }

    var count: Int { rows.count }

    /// Builds the indexes from the rows as they are, if they are not built.
    private func buildIndexes() {
        guard !indexesBuilt else { return }
        indexesBuilt = true
        let all = rows.array   // the fetched rows themselves: the index is built before any change
        guard keyed else {
            placedIndex = ResultsPlacedIndex(all, capacity: all.count) { $0.held.map(ResultsPlacedIndex.key) }
            return
        }
        // Keyed rows hold only unsaved objects: few.
        var byObject = ResultsPlacedIndex()
        for entry in all { if let held = entry.held { byObject[ResultsPlacedIndex.key(held)] = entry } }
        let byKey = ResultsPlacedIndex(all, capacity: all.count) { $0.held == nil ? UInt64(bitPattern: $0.savedKey) : nil }
        placedIndex = byObject
        placedKeyIndex = byKey
    }

    private func index(_ entry: ResultsEntry) {
        if let held = entry.held { if indexesBuilt { placedIndex[ResultsPlacedIndex.key(held)] = entry } } else { placedKeyIndex[UInt64(bitPattern: entry.savedKey)] = entry }
    }

    private func unindex(_ entry: ResultsEntry) {
        if let held = entry.held { if indexesBuilt { placedIndex[ResultsPlacedIndex.key(held)] = nil } } else { placedKeyIndex[UInt64(bitPattern: entry.savedKey)] = nil }
    }

    /// The row an object is placed in: by the object itself, or (keyed rows) by its key.
    func entry(for object: ManagedObject) -> ResultsEntry? {
        buildIndexes()
        if let entry = placedIndex[ResultsPlacedIndex.key(object)] { return entry }
        guard keyed, !object.hasTemporaryKey else { return nil }
        return placedKeyIndex[UInt64(bitPattern: object.identityKey)]
    }

    func isPlaced(_ object: ManagedObject) -> Bool {
        entry(for: object) != nil
    }

    /// Whether a keyed row holds the saved row `key`.
    func isPlaced(key: Int64) -> Bool {
        buildIndexes()
        return placedKeyIndex[UInt64(bitPattern: key)] != nil
    }

    /// Whether a placed object's current values still have the keys it was placed by.
    func keepsItsPlace(_ object: ManagedObject) -> Bool {
        entry(for: object)?.keysMatch(object, sorts: sorts) ?? false
    }

    /// The row for an object placed now: keyed rows hold only unsaved objects.
    private func makeEntry(_ object: ManagedObject) -> ResultsEntry {
        keyed ? ResultsEntry(object: object, sorts: sorts, holding: object.hasTemporaryKey)
            : ResultsEntry(object: object, sorts: sorts)
    }

    /// Replaces every row (after a fetch).
    func reset(_ objects: [ManagedObject]) {
        reset(entries: objects.map(makeEntry))
    }

    /// Replaces every row with rows already made (a keyed fetch's).
    func reset(entries: [ResultsEntry]) {
        rows = ResultsRowStore(entries, maxChunk: maxChunk)
        placedIndex = ResultsPlacedIndex()
        placedKeyIndex = ResultsPlacedIndex()
        indexesBuilt = false
        rebuildSections(affectedKeys: nil)
    }

    /// The flat position of a placed object: binary search by the keys it was placed with,
    /// checked; nil when it is not there.
    func position(of object: ManagedObject) -> Int? {
        guard let entry = entry(for: object) else { return nil }
        let found = lowerBound(entry)
        if found < rows.count, rows[found] === entry { return found }
        // Only when its object's ID changed since it was placed (a save): look at every row.
        for (position, row) in rows.enumerated() where row === entry { return position }
        return nil
    }

    /// Takes out the rows at `outgoing` (ascending old positions), puts in `incoming` objects at
    /// their places: in place for a few, by one merge for many. Returns each incoming object's
    /// new position, by object.
    @discardableResult
    func apply(outgoing: [Int], incoming objects: [ManagedObject]) -> [ObjectIdentifier: Int] {
        buildIndexes()   // built before rows change, from the rows as they were
        for position in outgoing { unindex(rows[position]) }
        let order = sorts
        let incoming = objects.map(makeEntry)
        var positions: [ObjectIdentifier: Int] = [:]
        positions.reserveCapacity(objects.count)
        if (outgoing.count + incoming.count) * ResultsRows.mergeRatio <= rows.count {
            let oldCount = rows.count
            for position in outgoing.reversed() { rows.remove(at: position) }
            // Each binary search over a million rows is a cache miss a step: a few rows' new
            // places are kept as they are inserted (a later one shifts those after it), more
            // are found again after.
            var placed: [Int] = []
            placed.reserveCapacity(incoming.count)
            for entry in incoming {
                let position = rows.insert(entry, { ResultsEntry.compare($0, entry, sorts: order) < 0 },
                                           boundaryBefore: { ResultsEntry.compare($0, entry, sorts: order) < 0 })
                if incoming.count <= ResultsRows.trackedPlacements {
                    for index in placed.indices where placed[index] >= position { placed[index] += 1 }
                    placed.append(position)
                }
            }
            for (offset, (object, entry)) in zip(objects, incoming).enumerated() {
                positions[ObjectIdentifier(object)] = offset < placed.count ? placed[offset] : lowerBound(entry)
            }
            for entry in incoming { index(entry) }
            updateSections(outgoing: outgoing, oldCount: oldCount, incoming: incoming)
            return positions
        } else {
            var flat = rows.array
            rows = ResultsRowStore(maxChunk: maxChunk)   // so `flat` is the only reference: swaps move no counts
            ResultsRows.removeInPlace(outgoing, from: &flat)
            let placed = ResultsRows.insertInPlace(incoming, into: &flat, sorts: order)
            for (object, position) in zip(objects, placed) { positions[ObjectIdentifier(object)] = position }
            rows = ResultsRowStore(flat, maxChunk: maxChunk, copyingChunks: false)
        }
        for entry in incoming { index(entry) }
        rebuildSections(affectedKeys: incoming.map { $0.key(0) })
        return positions
    }

    /// The first flat position whose row does not sort before `probe`.
    func lowerBound(_ probe: ResultsEntry) -> Int {
        let sorts = sorts
        return rows.partitionPoint({ ResultsEntry.compare($0, probe, sorts: sorts) < 0 },
                                   boundaryBefore: { ResultsEntry.compare($0, probe, sorts: sorts) < 0 })
    }

    /// The most incoming rows whose places `apply` keeps as it inserts them (each insertion
    /// shifts the kept places after it: quadratic), rather than finding each again.
    static let trackedPlacements = 32

    /// How many rows per changed row make one merge over every row cheaper than placing each
    /// changed row on its own: a placement is a move within a chunk and two binary searches
    /// (about 1,500 instructions), a merge swaps each row twice (about 20 a row).
    static let mergeRatio = 64

    /// Removes the rows at `outgoing` (ascending) in one pass: survivors are swapped down (no
    /// reference counting), the removed rows end up last and are dropped.
    private static func removeInPlace(_ outgoing: [Int], from rows: inout [ResultsEntry]) {
        guard !outgoing.isEmpty else { return }
        var kept = 0
        rows.withUnsafeMutableBufferPointer { buffer in
            var next = 0
            for position in buffer.indices {
                if next < outgoing.count && outgoing[next] == position {
                    next += 1
                    continue
                }
                if kept != position { buffer.swapAt(kept, position) }
                kept += 1
            }
        }
        rows.removeLast(rows.count - kept)
    }

    /// Inserts `incoming` at their places in one backward pass: each place is found by binary
    /// search, the rows after it are swapped up (no reference counting). O(n) moves, O(k log n)
    /// comparisons. Returns each incoming row's new position, in the order given.
    private static func insertInPlace(_ incoming: [ResultsEntry], into rows: inout [ResultsEntry],
                                      sorts: [ResolvedSort]) -> [Int] {
        guard !incoming.isEmpty else { return [] }
        let places = incoming.map { entry in
            partitionPoint(rows[...]) { ResultsEntry.compare($0, entry, sorts: sorts) < 0 }
        }
        // Sorted by place; only rows sharing a place are compared (sorting the rows themselves
        // would compare, and retain, far more).
        let order = places.indices.sorted { a, b in
            places[a] != places[b] ? places[a] < places[b] : ResultsEntry.compare(incoming[a], incoming[b], sorts: sorts) < 0
        }
        var newPositions = [Int](repeating: 0, count: incoming.count)
        let oldCount = rows.count
        rows.append(contentsOf: incoming)   // placeholders, overwritten below
        rows.withUnsafeMutableBufferPointer { buffer in
            var source = oldCount - 1
            var target = buffer.count - 1
            var next = order.count - 1
            while next >= 0 {
                if source >= 0 && places[order[next]] <= source {
                    buffer.swapAt(target, source)
                    source -= 1
                } else {
                    buffer[target] = incoming[order[next]]
                    newPositions[order[next]] = target
                    next -= 1
                }
                target -= 1
            }
        }
        return newPositions
    }

    /// The sections after a few rows left (`outgoing`, ascending positions among `oldCount`
    /// rows) and `incoming` rows came, from the section sizes alone: a leaving row's section is
    /// found by its old position among the section starts, a new row's by its key among the
    /// section keys (a key not there makes a new section), and sections left empty go. No row
    /// is read: the boundary searches `rebuildSections` makes touch scattered rows, a cache
    /// miss a step in a million.
    private func updateSections(outgoing: [Int], oldCount: Int, incoming: [ResultsEntry]) {
        guard sectioned, let first = sorts.first else { return }   // one section: [.null] at 0, always
        var keys = sectionKeys
        var sizes = sectionStarts.indices.map { index in
            (index + 1 < sectionStarts.count ? sectionStarts[index + 1] : oldCount) - sectionStarts[index]
        }
        for position in outgoing {
            var low = 0, high = sectionStarts.count   // the first section starting after `position`
            while low < high {
                let mid = (low + high) / 2
                if sectionStarts[mid] <= position { low = mid + 1 } else { high = mid }
            }
            guard low > 0, sizes[low - 1] > 0 else {
                rebuildSections(affectedKeys: incoming.map { $0.key(0) })   // not the sections it was placed in: never guess
                return
            }
            sizes[low - 1] -= 1
        }
        for entry in incoming {
            let key = entry.key(0)
            var low = 0, high = keys.count   // the first section key not before `key`
            while low < high {
                let mid = (low + high) / 2
                if first.compare(keys[mid], key) < 0 { low = mid + 1 } else { high = mid }
            }
            if low < keys.count, first.compare(keys[low], key) == 0 {
                sizes[low] += 1
            } else {
                keys.insert(key, at: low)
                sizes.insert(1, at: low)
            }
        }
        var newKeys: [SQLValue] = [], newStarts: [Int] = []
        var start = 0
        for (key, size) in zip(keys, sizes) where size > 0 {
            newKeys.append(key)
            newStarts.append(start)
            start += size
        }
        sectionKeys = newKeys
        sectionStarts = newStarts
    }

    /// Finds section boundaries by binary search on the section key (the first sort key):
    /// O(sections × log n) after a change, one scan after a fetch.
    ///
    /// Without a section key there is always exactly one section, empty when there are no rows
    /// (as `NSFetchedResultsController` has): a list indexes section 0 whatever the results.
    private func rebuildSections(affectedKeys: [SQLValue]?) {
        guard sectioned, let first = sorts.first else {
            sectionKeys = [.null]
            sectionStarts = [0]
            return
        }
        var candidates: [SQLValue]
        if let affectedKeys {
            candidates = sectionKeys + affectedKeys
        } else {
            candidates = []
            var previous: SQLValue?
            for row in rows where previous.map({ first.compare($0, row.key(0)) != 0 }) ?? true {
                candidates.append(row.key(0))
                previous = row.key(0)
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
        func before(_ rowKey: SQLValue) -> Bool {
            let order = sort.compare(rowKey, key)
            return order < 0 || (strictlyAfter && order == 0)
        }
        return rows.partitionPoint({ before($0.key(0)) }, boundaryBefore: { before($0.k0) })
    }

    /// The first position in `rows` whose row is not `before`.
    private static func partitionPoint(_ rows: ArraySlice<ResultsEntry>, _ before: (ResultsEntry) -> Bool) -> Int {
        var low = rows.startIndex, high = rows.endIndex
        while low < high {
            let mid = (low + high) / 2
            if before(rows[mid]) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The layout the diff engine compares: sections identified by their key value.
    func layout() -> SectionLayout {
        SectionLayout(names: sectionKeys.map(ResultsRows.identity), starts: sectionStarts, count: rows.count)
    }

    /// The section and row of a flat position, by binary search over section starts.
    func path(forFlat position: Int, starts: [Int]? = nil) -> IndexPath {
        let starts = starts ?? sectionStarts
        var low = 0, high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= position { low = mid + 1 } else { high = mid }
        }
        let section = max(0, low - 1)
        return IndexPath(item: position - (starts.isEmpty ? 0 : starts[section]), section: section)
    }

    /// The flat position of an index path; nil when it is out of range.
    func flat(_ indexPath: IndexPath) -> Int? {
        guard indexPath.count == 2 else { return nil }
        let section = indexPath[0], item = indexPath[1]
        guard section >= 0, section < sectionStarts.count, item >= 0 else { return nil }
        let flat = sectionStarts[section] + item
        let end = section + 1 < sectionStarts.count ? sectionStarts[section + 1] : rows.count
        return flat < end ? flat : nil
    }

    /// What is wrong with the rows, for tests: nil when they are sorted, each placed once
    /// with the keys it is filed under, and the sections cover them exactly.
    func inconsistency() -> String? {
        buildIndexes()
        var seen = Set<ObjectIdentifier>()
        var previous: ResultsEntry?
        for (index, row) in rows.enumerated() {
            defer { previous = row }
            let name = row.held.map { "\($0)" } ?? "row with key \(row.savedKey)"
            guard seen.insert(ObjectIdentifier(row)).inserted else { return "row \(index) is there twice: \(name)" }
            let placed = row.held.map { placedIndex[ResultsPlacedIndex.key($0)] } ?? placedKeyIndex[UInt64(bitPattern: row.savedKey)]
            guard let placed else { return "row \(index) is not placed: \(name)" }
            if placed !== row { return "row \(index) is not the entry its object is placed under: \(name)" }
            if let previous, ResultsEntry.compare(previous, row, sorts: sorts) >= 0 {
                return "rows \(index - 1) and \(index) are out of order: \(name)"
            }
        }
        let placed = placedIndex.count + placedKeyIndex.count
        if placed != rows.count { return "\(placed) placed, \(rows.count) rows" }
        return nil
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
}

import Foundation
