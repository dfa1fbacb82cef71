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
        try forEachKeyedRow(plan, includesPendingChanges: request.includesPendingChanges, sortValues: false) { key, _, object in
            if let object {
                pending.append(object)
                keys.append(-Int64(pending.count))
            } else {
                keys.append(key)
            }
        }
        return BatchedResults(context: self, entity: plan.entity, keys: keys, pending: pending, batchSize: batchSize,
                              prefetching: prefetching)
    }

    /// The objects with `keys` when the keys ascend (a fetch in primary-key order, the common
    /// way to walk a big table): the read returns the rows in the keys' order, so each object is
    /// made as its row arrives, with no lookup table. Nil when the keys do not ascend or a row
    /// is gone (the general path makes the stand-ins).
    func ascendingBatch(of entity: EntityDescription, keys: [Int64]) -> [ManagedObject]? {
        var previous = Int64.min
        for key in keys {
            guard key > previous else { return nil }
            previous = key
        }
        let objects = entityObjects(entity)
        var made: [ManagedObject] = []
        made.reserveCapacity(keys.count)
        do {
            try store.read(entity, keys: keys) { key, version, decode in
                made.append(try materialize(key: key, version: version, decode, entity: entity, objects: objects))
            }
        } catch {
            return nil
        }
        return made.count == keys.count ? made : nil
    }
}
