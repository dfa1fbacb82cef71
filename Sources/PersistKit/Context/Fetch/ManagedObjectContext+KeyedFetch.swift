/// Fetching keys instead of objects: a batched fetch and a batched results controller hold a
/// key per saved row and make objects only for the rows read.
extension ManagedObjectContext {
    /// Hands `body` the rows a plan matches, in order: each saved row as its key (with its sort
    /// values when `sortValues`, else an empty array) and a nil object, each of this context's
    /// pending objects that matches now as itself (key 0). The rows are the ones
    /// ``fetchObjects(_:includesPendingChanges:)`` returns, windowed by the plan's limit and offset.
    ///
    /// Saved rows are never made into objects: memory stays with the caller's use of the keys.
    func forEachKeyedRow(_ plan: FetchPlan, includesPendingChanges: Bool, sortValues: Bool,
                         _ body: (_ key: Int64, _ values: ContiguousArray<SQLValue>, _ pending: ManagedObject?) throws -> Void) throws {
        let pending = includesPendingChanges ? try pendingObjects(for: plan) : PendingObjects()
        guard !pending.inserted.isEmpty || !pending.changedOrDeleted.isEmpty else {
            try store.readKeys(plan.query, limit: plan.limit, offset: plan.offset, sortValues: sortValues) { key, values in
                try body(key, values, nil)
            }
            return
        }
        // Saved rows by their committed values, minus the objects changed here, merged with the
        // pending objects that match now; enough rows to fill the window after exclusions.
        let excluded = Set(pending.changedOrDeleted.map(\.identityKey))
        let extra = try (pending.inserted + pending.changedOrDeleted.filter { !$0.deletedFlag })
            .filter(plan.matches)
            .sorted(by: plan.areInIncreasingOrder)
        // Read now: the store's lock is held while rows are handed over (a sort through a
        // to-one may read the store).
        let extraValues = extra.map { object in ContiguousArray(plan.sorts.map { $0.value(of: object) }) }
        let window = plan.limit > 0 ? plan.offset + plan.limit + excluded.count : 0
        var position = 0
        func emit(_ key: Int64, _ values: ContiguousArray<SQLValue>, _ object: ManagedObject?) throws {
            defer { position += 1 }
            guard position >= plan.offset, plan.limit == 0 || position < plan.offset + plan.limit else { return }
            try body(key, values, object)
        }
        var next = 0
        let none = ContiguousArray<SQLValue>()
        try store.readKeys(plan.query, limit: window, offset: 0, sortValues: sortValues || !extra.isEmpty) { key, values in
            if excluded.contains(key) { return }
            while next < extra.count, plan.sorts(extra[next], extraValues[next], before: key, values) {
                try emit(0, none, extra[next])
                next += 1
            }
            try emit(key, sortValues ? values : none, nil)
        }
        while next < extra.count {
            try emit(0, none, extra[next])
            next += 1
        }
    }

    /// ``forEachKeyedRow(_:includesPendingChanges:sortValues:_:)`` for a plan with parts (a
    /// request that reads sub-entities): each part's rows, merged in the request's order (ties
    /// by key, which the entities of a tree share; unsaved objects after saved ones), then
    /// windowed; `body` also gets the entity of each row.
    func forEachKeyedRow(ofParts plan: FetchPlan, includesPendingChanges: Bool, sortValues: Bool,
                         _ body: (_ key: Int64, _ values: ContiguousArray<SQLValue>, _ pending: ManagedObject?,
                                  _ entity: EntityDescription) throws -> Void) throws {
        struct Row {
            var key: Int64
            var values: ContiguousArray<SQLValue>
            var object: ManagedObject?
            var entity: EntityDescription
        }
        func before(_ a: Row, _ b: Row) -> Bool {
            for (index, sort) in plan.sorts.enumerated() {
                let order = sort.compare(a.values[index], b.values[index])
                if order != 0 { return order < 0 }
            }
            switch (a.object, b.object) {
            case let (first?, second?): return ManagedObject.tiebreak(first, second) < 0
            case let (first?, nil): return !first.hasTemporaryKey && first.identityKey < b.key
            case let (nil, second?): return second.hasTemporaryKey || a.key < second.identityKey
            case (nil, nil): return a.key < b.key
            }
        }
        var merged: [Row] = []
        for part in plan.parts {
            var rows: [Row] = []
            try forEachKeyedRow(part, includesPendingChanges: includesPendingChanges, sortValues: true) { key, values, object in
                let values = object.map { object in ContiguousArray(part.sorts.map { $0.value(of: object) }) } ?? values
                rows.append(Row(key: key, values: values, object: object, entity: part.entity))
            }
            if merged.isEmpty { merged = rows; continue }
            var interleaved: [Row] = []
            interleaved.reserveCapacity(merged.count + rows.count)
            var i = 0, j = 0
            while i < merged.count || j < rows.count {
                if j == rows.count || (i < merged.count && !before(rows[j], merged[i])) {
                    interleaved.append(merged[i]); i += 1
                } else {
                    interleaved.append(rows[j]); j += 1
                }
            }
            merged = interleaved
        }
        let start = min(plan.offset, merged.count)
        let end = plan.limit > 0 ? min(merged.count, start + plan.limit) : merged.count
        let none = ContiguousArray<SQLValue>()
        for row in merged[start..<end] { try body(row.key, sortValues ? row.values : none, row.object, row.entity) }
    }

    /// The saved objects with `keys`, in that order (the missing ones read in one query); a row
    /// gone since the keys were read is a detached stand-in that reports `isDeleted`.
    func objects(of entity: EntityDescription, keys: [Int64]) -> [ManagedObject] {
        if let made = ascendingBatch(of: entity, keys: keys) { return made }
        let found = resolve(keys, in: entity)
        if found.count == keys.count { return found }
        var byKey: [Int64: ManagedObject] = [:]
        for object in found { byKey[object.objectID.key] = object }
        return keys.map { byKey[$0] ?? deletedStandIn(entity, key: $0) }
    }

    /// The object this context holds for a saved row, if it holds one.
    func registeredObject(of entity: EntityDescription, key: Int64) -> ManagedObject? {
        registry.object(of: entity, key: key)
    }

    /// A detached object for a row deleted elsewhere that this context never held: it reports
    /// `isDeleted` and has the row's ID, and nothing else.
    func deletedStandIn(_ entity: EntityDescription, key: Int64) -> ManagedObject {
        let gone = entity.objectClass.init(entity: entity, insertInto: nil)
        gone.objectID = savedObjectID(entity, key: key)
        gone.deletedFlag = true
        return gone
    }
}

extension ManagedObjectContext.FetchPlan {
    /// Whether `object` (whose sort values are `objectValues`) sorts before the saved row `key`
    /// whose sort values are `values`.
    func sorts(_ object: ManagedObject, _ objectValues: ContiguousArray<SQLValue>, before key: Int64,
               _ values: ContiguousArray<SQLValue>) -> Bool {
        for (index, sort) in sorts.enumerated() where index < values.count && index < objectValues.count {
            let order = sort.compare(objectValues[index], values[index])
            if order != 0 { return order < 0 }
        }
        // Ties: saved objects by key, unsaved ones after every saved one.
        return !object.hasTemporaryKey && object.identityKey < key
    }
}
