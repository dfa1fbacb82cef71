/// What one batch request wrote, gathered inside its transaction: the rows it inserted and
/// deleted, and the rows it changed with the slots that changed in each (a row changed twice,
/// say nullified through two relationships, is one change).
///
/// It becomes the request's persistent-history record (so other processes merge it exactly)
/// and its entry in the store's change log (so the container's contexts merge it).
struct BatchChanges {
    private(set) var inserted: [String: [Int64]] = [:]
    private(set) var deleted: [String: [Int64]] = [:]
    private var updated: [String: (entity: EntityDescription, rows: [Int64: SlotSet])] = [:]

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
        var entry = updated[entity.name] ?? (entity, [:])
        for key in keys { entry.rows[key, default: SlotSet()].formUnion(slots) }
        updated[entity.name] = entry
    }

    /// The history record's changes: updated rows grouped by the keys that changed.
    var history: StoreHistoryChanges {
        var changes = StoreHistoryChanges()
        changes.inserted = inserted.mapValues { $0.sorted() }
        changes.deleted = deleted.mapValues { $0.sorted() }
        for (name, entry) in updated {
            var groups: [SlotSet: [Int64]] = [:]
            var order: [SlotSet] = []
            for key in entry.rows.keys.sorted() {
                guard let slots = entry.rows[key] else { continue }
                if groups[slots] == nil { order.append(slots) }
                groups[slots, default: []].append(key)
            }
            changes.updated[name] = order.map { slots in
                StoreHistoryChanges.UpdateGroup(keyNames: StoreHistoryChanges.names(slots.slots, of: entry.entity),
                                                objects: groups[slots] ?? [])
            }
        }
        return changes
    }

    /// The change-log entry: the container's contexts merge it at their next
    /// `processPendingChanges()` (origin 0: every context, the requesting one included).
    func storeChange(historyID: Int64?) -> StoreChange {
        var change = StoreChange(sequence: 0, origin: 0, inserted: inserted, deleted: deleted)
        for (name, entry) in updated { change.updated[name] = entry.rows.keys.sorted() }
        change.historyID = historyID
        return change
    }
}
