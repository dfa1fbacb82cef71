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
        let pending = request.includesPendingChanges ? pendingObjects(of: plan.entity) : PendingObjects()
        if !pending.inserted.isEmpty || !pending.changedOrDeleted.isEmpty {
            let objects = try fetchObjects(plan, includesPendingChanges: true)
            return BatchedResults(context: self, entity: plan.entity, keys: [], objects: objects, batchSize: batchSize)
        }
        let keys = try store.keys(plan.query, limit: plan.limit, offset: plan.offset)
        return BatchedResults(context: self, entity: plan.entity, keys: keys, objects: nil, batchSize: batchSize)
    }

    /// The objects with `keys`, in that order (one query); a row gone since is skipped over by
    /// a deleted stand-in that reports `isDeleted`.
    func batch(of entity: EntityDescription, keys: ArraySlice<Int64>) -> [ManagedObject] {
        if let made = ascendingBatch(of: entity, keys: keys) { return made }
        let keys = Array(keys)
        let found = resolve(keys, in: entity)
        if found.count == keys.count { return found }
        var byKey: [Int64: ManagedObject] = [:]
        for object in found { byKey[object.objectID.key] = object }
        return keys.map { key in
            if let object = byKey[key] { return object }
            // Deleted by someone else since the keys were read: a detached, deleted object.
            let gone = entity.objectClass.init(entity: entity, insertInto: nil)
            gone.objectID = savedObjectID(entity, key: key)
            gone.deletedFlag = true
            return gone
        }
    }

    /// The objects with `keys` when the keys ascend (a fetch in primary-key order, the common
    /// way to walk a big table): the read returns the rows in the keys' order, so each object is
    /// made as its row arrives, with no lookup table. Nil when the keys do not ascend or a row
    /// is gone (the general path makes the stand-ins).
    private func ascendingBatch(of entity: EntityDescription, keys: ArraySlice<Int64>) -> [ManagedObject]? {
        var previous = Int64.min
        for key in keys {
            guard key > previous else { return nil }
            previous = key
        }
        let objects = entityObjects(entity)
        var made: [ManagedObject] = []
        made.reserveCapacity(keys.count)
        do {
            try store.read(entity, keys: Array(keys)) { key, version, decode in
                made.append(try materialize(key: key, version: version, decode, entity: entity, objects: objects))
            }
        } catch {
            return nil
        }
        return made.count == keys.count ? made : nil
    }

    func savedObjectID(_ entity: EntityDescription, key: Int64) -> ObjectID {
        ObjectID(entityName: entity.name, storeIdentifier: store.identifier, key: key, isTemporary: false)
    }
}
