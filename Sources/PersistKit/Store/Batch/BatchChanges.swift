/// What one batch request wrote, gathered inside its transaction: the rows it inserted and
/// deleted, and the rows it changed with the slots that changed in each (a row changed twice,
/// say nullified through two relationships, is one change).
///
/// It becomes the request's persistent-history record (so other processes merge it exactly)
/// and its entry in the store's change log (so the container's contexts merge it).
struct BatchChanges {
    private(set) var inserted: [String: [Int64]] = [:]
    private(set) var deleted: [String: [Int64]] = [:]
    /// Per entity, the updates as noted: a batch update is one run of 100,000 keys, merged
    /// into one group without hashing a key; only several runs are merged row by row.
    private var updated: [String: (entity: EntityDescription, runs: [(slots: SlotSet, keys: [Int64])])] = [:]

    var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && updated.isEmpty }

    mutating func insert(_ keys: [Int64], of entity: EntityDescription) {
        guard !keys.isEmpty else { return }
        inserted[entity.name, default: []].append(contentsOf: keys)
    }

    mutating func delete(_ keys: [Int64], of entity: EntityDescription) {
        guard !keys.isEmpty else { return }
        deleted[entity.name, default: []].append(contentsOf: keys)
    }

    /// Notes that `slots` (storage slots, or a to-many's virtual slot) of these rows changed.
    mutating func update(_ keys: [Int64], of entity: EntityDescription, slots: SlotSet) {
        guard !keys.isEmpty, !slots.isEmpty else { return }
        var entry = updated.removeValue(forKey: entity.name) ?? (entity, [])
        if let last = entry.runs.indices.last, entry.runs[last].slots == slots {
            entry.runs[last].keys += keys   // an upsert notes its rows one by one
        } else {
            entry.runs.append((slots, keys))
        }
        updated[entity.name] = entry
    }

    /// An entity's changed rows grouped by the slots that changed, each group's keys
    /// ascending, groups in order of their first key.
    private static func groups(_ runs: [(slots: SlotSet, keys: [Int64])]) -> [(slots: SlotSet, keys: [Int64])] {
        if runs.count == 1 { return [(runs[0].slots, sortedUnique(runs[0].keys))] }
        var rows: [Int64: SlotSet] = [:]
        for run in runs {
            for key in run.keys { rows[key, default: SlotSet()].formUnion(run.slots) }
        }
        var groups: [SlotSet: Int] = [:]
        var result: [(slots: SlotSet, keys: [Int64])] = []
        for key in rows.keys.sorted() {
            guard let slots = rows[key] else { continue }
            if let index = groups[slots] {
                result[index].keys.append(key)
            } else {
                groups[slots] = result.count
                result.append((slots, [key]))
            }
        }
        return result
    }

    /// The keys ascending, each once (they usually come so: then they are returned as they are).
    private static func sortedUnique(_ keys: [Int64]) -> [Int64] {
        var ascending = true
        for index in keys.indices.dropFirst() where keys[index - 1] >= keys[index] {
            ascending = false
            break
        }
        if ascending { return keys }
        var result: [Int64] = []
        result.reserveCapacity(keys.count)
        for key in keys.sorted() where result.last != key { result.append(key) }
        return result
    }

    /// The history record's changes and the change-log entry (the container's contexts merge
    /// it at their next `processPendingChanges()`; origin 0: every context, the requesting one
    /// included), from one grouping of the updates.
    func record(historyID: (StoreHistoryChanges) throws -> Int64?) rethrows -> StoreChange {
        var history = StoreHistoryChanges()
        history.inserted = inserted.mapValues(Self.sortedUnique)
        history.deleted = deleted.mapValues(Self.sortedUnique)
        var change = StoreChange(sequence: 0, origin: 0, inserted: inserted, deleted: deleted)
        for (name, entry) in updated {
            let groups = Self.groups(entry.runs)
            history.updated[name] = groups.map { group in
                StoreHistoryChanges.UpdateGroup(keyNames: StoreHistoryChanges.names(group.slots.slots, of: entry.entity),
                                                objects: group.keys)
            }
            change.updated[name] = groups.count == 1 ? groups[0].keys : groups.flatMap(\.keys).sorted()
        }
        change.historyID = try historyID(history)
        return change
    }
}
