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
    func batch(of entity: EntityDescription, keys: [Int64]) -> [ManagedObject] {
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

    func savedObjectID(_ entity: EntityDescription, key: Int64) -> ObjectID {
        ObjectID(entityName: entity.name, storeIdentifier: store.identifier, key: key, isTemporary: false)
    }
}
