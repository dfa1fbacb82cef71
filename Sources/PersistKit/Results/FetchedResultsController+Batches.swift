/// Reading the rows of a batched controller (its request has a `fetchBatchSize`): the rows hold
/// saved objects' keys, and objects are made a batch at a time, as a batched fetch makes them.
extension FetchedResultsController {
    /// The object of the row at a flat position: the one the row holds, the context's object
    /// for its key, or one made now with the rest of its batch.
    func rowObject(_ position: Int) -> ManagedObject {
        let entry = core.rows[position]
        if let held = entry.held { return held }
        let entity = rowEntity(key: entry.savedKey)
        if let object = context.registeredObject(of: entity, key: entry.savedKey) { return object }
        let size = max(1, fetchRequest.fetchBatchSize)
        let start = position / size * size
        let batch = core.rows.slice(start..<min(core.rows.count, start + size))
        let objects = self.objects(of: batch)
        try? context.prefetch(batchPrefetching, for: objects.filter { !$0.deletedFlag })
        recentBatches.append(objects)
        if recentBatches.count > 2 { recentBatches.removeFirst() }
        return objects[position - start]
    }

    /// The ID of the object in the row at a flat position, without making the object.
    func rowObjectID(_ position: Int) -> ObjectID {
        let entry = core.rows[position]
        return entry.held?.objectID ?? context.savedObjectID(rowEntity(key: entry.savedKey), key: entry.savedKey)
    }

    /// The objects of some rows, in order; the ones the context does not hold are read in one
    /// query per 500 (a row deleted since is a stand-in that reports `isDeleted`).
    func objects(of entries: ArraySlice<ResultsEntry>) -> [ManagedObject] {
        if plan?.parts.isEmpty == false { return objectsOfTree(entries) }
        let entity = rowEntity
        var result: [ManagedObject?] = []
        result.reserveCapacity(entries.count)
        var missing: [Int64] = [], missingAt: [Int] = []
        for entry in entries {
            if let object = entry.held ?? context.registeredObject(of: entity, key: entry.savedKey) {
                result.append(object)
            } else {
                missing.append(entry.savedKey)
                missingAt.append(result.count)
                result.append(nil)
            }
        }
        for (offset, object) in context.objects(of: entity, keys: missing).enumerated() where offset < missingAt.count {
            result[missingAt[offset]] = object
        }
        return result.map { $0 ?? context.deletedStandIn(entity, key: 0) }
    }

    /// ``objects(of:)`` for rows of several entities (a request that reads sub-entities): the
    /// ones the context does not hold are read an entity at a time.
    private func objectsOfTree(_ entries: ArraySlice<ResultsEntry>) -> [ManagedObject] {
        var result: [ManagedObject?] = []
        result.reserveCapacity(entries.count)
        var missing: [ObjectIdentifier: (entity: EntityDescription, keys: [Int64], at: [Int])] = [:]
        for entry in entries {
            let entity = entry.held?.entity ?? rowEntity(key: entry.savedKey)
            if let object = entry.held ?? context.registeredObject(of: entity, key: entry.savedKey) {
                result.append(object)
            } else {
                missing[ObjectIdentifier(entity), default: (entity, [], [])].keys.append(entry.savedKey)
                missing[ObjectIdentifier(entity)]?.at.append(result.count)
                result.append(nil)
            }
        }
        for (entity, keys, at) in missing.values {
            for (offset, object) in context.objects(of: entity, keys: keys).enumerated() where offset < at.count {
                result[at[offset]] = object
            }
        }
        return result.map { $0 ?? context.deletedStandIn(rowEntity, key: 0) }
    }

    /// The entity of the rows (rows exist only after a fetch resolved it; a stand-in entity of
    /// `Result`'s class before).
    private var rowEntity: EntityDescription { plan?.entity ?? ManagedObject.invalidEntity(for: Result.self) }

    /// The entity of the saved row `key`: for a request that reads sub-entities, the one its
    /// rows were read as, else (a row placed since, by its object, which the row does not
    /// hold) the one of the context's object for it, else the one the store's row names.
    private func rowEntity(key: Int64) -> EntityDescription {
        guard let plan, !plan.parts.isEmpty else { return rowEntity }
        if let entity = keyEntities[key] { return entity }
        let entities = plan.parts.map(\.entity)
        var found = entities.first { context.registeredObject(of: $0, key: key) != nil }
        if found == nil, let name = try? context.store.entityName(ofKey: key, in: plan.entity) {
            found = entities.first { $0.name == name }
        }
        guard let found else { return rowEntity }
        keyEntities[key] = found
        return found
    }

    /// The object that was in an old row, for a delegate told of its deletion.
    func leavingObject(_ entry: ResultsEntry) -> ManagedObject {
        if let held = entry.held { return held }
        let entity = rowEntity(key: entry.savedKey)
        return context.registeredObject(of: entity, key: entry.savedKey) ?? context.deletedStandIn(entity, key: entry.savedKey)
    }
}
