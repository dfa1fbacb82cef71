extension ManagedObjectContext {
    /// Fetches the objects a request describes as a collection that makes them a batch
    /// (``FetchRequest/fetchBatchSize``, 500 by default) at a time.
    ///
    /// ```swift
    /// var request = FetchRequest<Contact>()
    /// request.fetchBatchSize = 500
    /// let contacts = try context.fetchBatched(request)
    /// contacts.count          // known at once; no object made yet
    /// contacts[10_000].name   // makes objects 10,000 to 10,499
    /// ```
    ///
    /// - Throws: as ``fetch(_:)``.
    public func fetchBatched<T: ManagedObject>(_ request: FetchRequest<T>) throws -> BatchedResults<T> {
        processPendingChanges()
        let plan = try plan(request)
        guard plan.entity.objectClass == T.self || T.self == ManagedObject.self else {
            throw PersistError(.invalidRequest, "Entity \(plan.entity.name) holds \(plan.entity.objectClass) objects, not \(T.self)",
                               entity: plan.entity.name)
        }
        let batchSize = request.fetchBatchSize > 0 ? request.fetchBatchSize : 500
        let prefetching = try prefetchSteps(request.relationshipKeyPathsForPrefetching, entity: plan.entity)
        var keys: [Int64] = []
        var pending: [ManagedObject] = []
        if !plan.parts.isEmpty {
            // Sub-entities: each key with its entity.
            let entities = plan.parts.map(\.entity)
            var keyEntities: [UInt16] = []
            try forEachKeyedRow(ofParts: plan, includesPendingChanges: request.includesPendingChanges, sortValues: false) { key, _, object, entity in
                if let object {
                    pending.append(object)
                    keys.append(-Int64(pending.count))
                } else {
                    keys.append(key)
                }
                keyEntities.append(UInt16(entities.firstIndex { $0 === entity } ?? 0))
            }
            return BatchedResults(context: self, entity: plan.entity, keys: keys, pending: pending, batchSize: batchSize,
                                  prefetching: prefetching, keyEntities: keyEntities, entities: entities)
        }
        if let dense = try denseKeys(plan, includesPendingChanges: request.includesPendingChanges) {
            keys = Array(dense)
        } else {
            try forEachKeyedRow(plan, includesPendingChanges: request.includesPendingChanges, sortValues: false) { key, _, object in
                if let object {
                    pending.append(object)
                    keys.append(-Int64(pending.count))
                } else {
                    keys.append(key)
                }
            }
        }
        return BatchedResults(context: self, entity: plan.entity, keys: keys, pending: pending, batchSize: batchSize,
                              prefetching: prefetching)
    }

    /// Every key of a walk of the whole table when the keys have no gap (see
    /// `SQLiteStore.denseKeys(_:)`): no row is stepped to read them. Nil when the plan
    /// filters, sorts or windows, or pending changes are to be merged in.
    private func denseKeys(_ plan: FetchPlan, includesPendingChanges: Bool) throws -> ClosedRange<Int64>? {
        guard plan.limit == 0, plan.offset == 0, plan.sorts.isEmpty, plan.evaluator == nil,
              plan.relationshipChains.isEmpty, plan.query.whereSQL == nil else { return nil }
        if includesPendingChanges {
            let pending = try pendingObjects(for: plan)
            guard pending.inserted.isEmpty, pending.changedOrDeleted.isEmpty else { return nil }
        }
        return try store.denseKeys(plan.query)
    }

    /// The saved objects with `keys`, in that order, as ``objects(of:keys:)`` makes them, read
    /// with `plan` (made once per batched fetch) when the keys ascend.
    /// Objects of `leaving` (a batch no longer held) are let go as rows are made, one per row,
    /// as ``letGo(_:of:)`` would; the caller lets go of those left.
    func objects(_ plan: BatchReadPlan, keys: [Int64], lettingGo leaving: inout [ManagedObject]) -> [ManagedObject] {
        if let made = ascendingBatch(plan, keys: keys, lettingGo: &leaving) { return made }
        let found = resolve(keys, in: plan.entity)
        if found.count == keys.count { return found }
        var byKey: [Int64: ManagedObject] = [:]
        for object in found { byKey[object.objectID.key] = object }
        return keys.map { byKey[$0] ?? deletedStandIn(plan.entity, key: $0) }
    }

    /// Lets go of a batch a batched fetch no longer holds. The objects nothing else holds
    /// leave the identity map here, in one pass, and their `deinit` then has nothing to remove:
    /// one registry lookup per batch instead of one per object.
    func letGo(_ batch: consuming [ManagedObject], of entity: EntityDescription) {
        var batch = batch
        guard let registry = registry.held(entity) else { return }
        for index in batch.indices {
            // Its `deinit` runs when `batch` goes, below.
            letGo(&batch[index], from: registry)
        }
    }

    /// Takes `object` out of the identity map if nothing but `object` holds it, so its
    /// `deinit`, when the caller drops it, has nothing to remove. True when it was in the map
    /// (so it is still this context's).
    @inline(__always)
    @discardableResult
    private func letGo(_ object: inout ManagedObject, from registry: EntityObjects) -> Bool {
        // Only this very object leaves (a stand-in or an object of an earlier reset is not in
        // the map).
        guard isKnownUniquelyReferenced(&object), !object.hasTemporaryKey else { return false }
        let removed = registry.byKey.remove(object.identityKey, ifIdenticalTo: object)
        object.leftUnregistered = true
        return removed
    }

    /// The objects with `keys` when the keys ascend (a fetch in primary-key order, the common
    /// way to walk a big table): the read returns the rows in the keys' order, so each object is
    /// made as its row arrives, with no lookup table. Nil when the keys do not ascend or a row
    /// is gone (the general path makes the stand-ins).
    func ascendingBatch(of entity: EntityDescription, keys: [Int64]) -> [ManagedObject]? {
        var leaving: [ManagedObject] = []
        return ascendingBatch(BatchReadPlan(entity: entity), keys: keys, lettingGo: &leaving)
    }

    private func ascendingBatch(_ plan: BatchReadPlan, keys: [Int64], lettingGo leaving: inout [ManagedObject]) -> [ManagedObject]? {
        var previous = Int64.min
        for key in keys {
            guard key > previous else { return nil }
            previous = key
        }
        let entity = plan.entity
        let objects = entityObjects(entity)
        var made: [ManagedObject] = []
        made.reserveCapacity(keys.count)
        // A let-go object nothing else can see, kept to be refilled with the next new row.
        var spare: ManagedObject?
        do {
            try store.readAscending(plan, keys: keys[...]) { key, version, decode, fill in
                // Only an object that was in the map is still this context's (not reset away).
                if !leaving.isEmpty {
                    var object = leaving.removeLast()
                    if letGo(&object, from: objects), ManagedObject.canRefill(object, as: entity) { spare = consume object }
                }
                // Each object is moved into `made`, not copied: a retain and a release less.
                let registered = objects.byKey.lookUpOrPrepareSlot(for: key)
                if let object = registered.object {
                    try refreshIfNewer(object, version: version, decode)
                    made.append(consume object)
                } else if let object = spare.take() {
                    // Nothing between the lookup and the insert changes the map: reading values
                    // into the object's storage frees only values.
                    try refill(object, key: key, version: version, fill, entity: entity)
                    objects.byKey.insert(object, for: key, atSlot: registered.slot)
                    made.append(consume object)
                } else {
                    made.append(try materialize(key: key, version: version, decode, entity: entity, objects: objects))
                }
            }
        } catch {
            return nil
        }
        return made.count == keys.count ? made : nil
    }

    /// Makes `object`, let go by a batch and seen by nothing else (see
    /// `ManagedObject.canRefill(_:as:)`), the object of row `key`, as `makeObject` would make a
    /// new one; the caller registers it. If the read fails the object is left out of the
    /// identity map, to be freed.
    @inline(__always)
    private func refill(_ object: ManagedObject, key: Int64, version: Int64, _ fill: (inout ContiguousArray<SQLValue>) throws -> Void,
                        entity: EntityDescription) throws {
        try fill(&object.storage)
        object.version = version
        object.readAtMerge = mergeCursor.mergeCount
        object.objectID = savedObjectID(entity, key: key)
        object.leftUnregistered = false
    }
}
