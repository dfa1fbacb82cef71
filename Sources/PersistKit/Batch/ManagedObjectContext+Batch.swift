extension ManagedObjectContext {
    /// Runs a batch insert: one transaction, no managed objects made.
    ///
    /// ```swift
    /// let result = try context.execute(BatchInsertRequest<Contact>(objects: rows))
    /// ```
    /// - Throws: ``PersistError`` naming the row's index: `.unknownKey` or `.typeMismatch` for
    ///   a value, `.validation` for a missing required value or a broken rule,
    ///   `.constraintViolation` for a uniqueness collision (unless the merge policy is
    ///   `.objectTrump`, which updates the stored object) or a to-one to an object the store
    ///   does not hold, `.invalidRequest` for a to-one to an unsaved object or a to-many;
    ///   `.invalidRequest` for an entity not in the model. Nothing is written when it throws.
    @discardableResult
    public func execute<T: ManagedObject>(_ request: BatchInsertRequest<T>) throws -> BatchResult {
        processPendingChanges()
        let entity = try batchEntity(T.self, named: request.entityName)
        if entity.isAbstract {
            throw PersistError(.invalidRequest, "A batch insert into \(entity.name), which is abstract: insert objects of its "
                               + "sub-entities (\(entity.inheritance?.concreteEntityNames.joined(separator: ", ") ?? ""))", entity: entity.name)
        }
        var rows: [ContiguousArray<SQLValue>] = []
        switch request.source {
        case .dictionaries(let objects):
            rows.reserveCapacity(objects.count)
            for (index, values) in objects.enumerated() {
                rows.append(try batchRow(values, of: entity, index: index))
            }
        case .fill(let fill):
            while true {
                let object = entity.objectClass.init(entity: entity, insertInto: nil)
                guard let typed = object as? T else {
                    throw PersistError(.invalidRequest, "Entity \(entity.name) holds \(entity.objectClass) objects, not \(T.self)", entity: entity.name)
                }
                if fill(typed) { break }
                try takeDetachedToOnes(of: object, index: rows.count)
                try checkBatchRow(object, index: rows.count)
                rows.append(object.storage)
            }
        }
        var batch = try batchUniqueness(entity, rows)
        batch.insert.author = transactionAuthor
        batch.insert.contextName = name
        let keys = try store.batchInsert(batch.insert)
        processPendingChanges()
        return BatchResult(objectIDs: batch.rowForEach.map { permanentID(entity, keys[$0]) })
    }

    /// Runs a batch update: one SQL `UPDATE` of the saved rows the predicate matches.
    ///
    /// ```swift
    /// try context.execute(BatchUpdateRequest<TaskItem>(predicate: \.isComplete == true, propertiesToUpdate: ["notes": nil]))
    /// ```
    /// - Throws: ``PersistError`` `.unknownKey`, `.typeMismatch` or `.validation` for a value,
    ///   `.constraintViolation` when the new values collide with a uniqueness constraint,
    ///   `.invalidPredicate`, `.invalidRequest` (also for a value of an `.externalStorage`
    ///   attribute above its threshold: a batch update writes no files, so set such a value on
    ///   the objects and save). Nothing is written when it throws.
    @discardableResult
    public func execute<T: ManagedObject>(_ request: BatchUpdateRequest<T>) throws -> BatchResult {
        processPendingChanges()
        let entity = try batchEntity(T.self, named: request.entityName)
        let values = entity.objectClass.init(entity: entity, insertInto: nil)
        var slots: [Int] = []
        for (key, value) in request.propertiesToUpdate.sorted(by: { $0.key < $1.key }) {
            try values.setValue(value, forKey: key)
            if let slot = entity.attribute(named: key)?.index { slots.append(slot) }
        }
        guard !slots.isEmpty else { return BatchResult(objectIDs: []) }
        let problems = entity.validators.filter { slots.contains($0.slot) }.flatMap { $0.problems(with: values.storage[$0.slot]) }
        if !problems.isEmpty {
            throw PersistError(.validation, "Batch update of \(entity.name): " + problems.joined(separator: "; "),
                               entity: entity.name, problems: problems)
        }
        if store.externalData != nil { try ExternalStorage.checkBatchUpdate(of: entity, slots: slots, values: values.storage) }
        let queries = try batchQueries(entity, predicate: request.predicate?.node, includesSubentities: request.includesSubentities)
        let keys: [[Int64]]
        do {
            keys = try store.batchUpdate(queries, slots: slots, values: slots.map { values.storage[$0] },
                                         author: transactionAuthor, contextName: name)
        } catch var error as PersistError where error.code == .constraintViolation {
            error.message = "Batch update of \(entity.name) would break a uniqueness constraint; nothing was changed (\(error.message))"
            error.entity = entity.name
            throw error
        }
        processPendingChanges()
        return BatchResult(objectIDs: objectIDs(of: queries.map(\.entity), keys))
    }

    /// Runs a batch delete with the relationships' delete rules, in SQL.
    ///
    /// ```swift
    /// try context.execute(BatchDeleteRequest<Contact>(predicate: \.bucket == 3))
    /// ```
    /// - Throws: ``PersistError`` `.validation` when a `.deny` relationship forbids it (naming the
    ///   objects), `.invalidRequest` for IDs of another entity or store, or unsaved objects.
    ///   Nothing is deleted when it throws.
    @discardableResult
    public func execute<T: ManagedObject>(_ request: BatchDeleteRequest<T>) throws -> BatchResult {
        processPendingChanges()
        let entity = try batchEntity(T.self, named: request.entityName)
        let queries: [StoreQuery]
        let deleted: [String: [Int64]]
        switch request.target {
        case .predicate(let predicate):
            queries = try batchQueries(entity, predicate: predicate?.node, includesSubentities: request.includesSubentities)
            deleted = try store.batchDelete(queries, only: nil, author: transactionAuthor, contextName: name)
        case .objectIDs(let objectIDs):
            // The entity's own objects, or in a tree those of the entities below it too.
            var entities: [String] = []
            for objectID in objectIDs {
                let own = objectID.scope == objectIDScope(of: entity)
                let below = !own && entity.inheritance != nil && objectID.storeIdentifier == store.identifier
                    && model.entity(named: objectID.entityName)?.isKind(of: entity.name) == true
                if !(own || below) || objectID.isTemporary {
                    throw PersistError(.invalidRequest, objectID.isTemporary ? "A batch delete takes saved objects only: \(objectID) is not saved"
                                       : "A batch delete of \(entity.name) was given \(objectID), an object of another entity or store",
                                       entity: entity.name, objectIDs: [objectID])
                }
                if !entities.contains(objectID.entityName) { entities.append(objectID.entityName) }
            }
            queries = try entities.compactMap(model.entity(named:)).map { try StoreQuery(entity: $0, predicate: nil, sorts: []) }
            deleted = try store.batchDelete(queries, only: Set(objectIDs.map(\.key)), author: transactionAuthor, contextName: name)
        }
        processPendingChanges()
        // The request's entities first, then those its delete rules reached.
        var entities = queries.map(\.entity)
        for name in deleted.keys.sorted() where !entities.contains(where: { $0.name == name }) {
            if let other = model.entity(named: name) { entities.append(other) }
        }
        return BatchResult(objectIDs: objectIDs(of: entities, entities.map { deleted[$0.name] ?? [] }))
    }

    // MARK: Helpers

    /// The IDs of `keys[i]`'s rows of `entities[i]`, in order, made in place (a batch may name
    /// many rows: no intermediate arrays are copied).
    private func objectIDs(of entities: [EntityDescription], _ keys: [[Int64]]) -> [ObjectID] {
        var objectIDs: [ObjectID] = []
        objectIDs.reserveCapacity(keys.reduce(0) { $0 + $1.count })
        for (entity, keys) in zip(entities, keys) {
            for key in keys { objectIDs.append(permanentID(entity, key)) }
        }
        return objectIDs
    }

    private func permanentID(_ entity: EntityDescription, _ key: Int64) -> ObjectID {
        savedObjectID(entity, key: key)
    }

    private func namedBatchEntity<T: ManagedObject>(_ type: T.Type, named name: String?) throws -> EntityDescription {
        if let name {
            guard let entity = model.entity(named: name) else {
                throw PersistError(.invalidRequest, "A batch request names \(name), which is not an entity of the model (entities: "
                    + model.entities.map(\.name).joined(separator: ", ") + ")", entity: name)
            }
            return entity
        }
        guard T.self != ManagedObject.self, let entity = model.entity(for: T.self) else {
            throw PersistError(.invalidRequest, "A batch request is for \(T.self), which is not an entity of this context's model (entities: "
                + model.entities.map(\.name).joined(separator: ", ") + ")")
        }
        return entity
    }

    /// What a batch update or delete runs: one query of the entity's rows, or for an entity in
    /// an inheritance tree one per concrete entity it covers (its own, with `includesSubentities`
    /// those below it too), each reading that entity's rows only, so that a predicate's entity
    /// tests are decided per entity, as a fetch's, and each row is recorded as its own entity's.
    private func batchQueries(_ entity: EntityDescription, predicate: PredicateNode?, includesSubentities: Bool) throws -> [StoreQuery] {
        guard let inheritance = entity.inheritance else { return [try StoreQuery(entity: entity, predicate: predicate, sorts: [])] }
        let names = includesSubentities ? inheritance.concreteEntityNames : (entity.isAbstract ? [] : [entity.name])
        return try names.compactMap(model.entity(named:)).map { try StoreQuery(entity: $0, predicate: predicate, sorts: []) }
    }

    /// The entity a request names, which must hold `T` objects (any, for `ManagedObject`).
    private func batchEntity<T: ManagedObject>(_ type: T.Type, named name: String?) throws -> EntityDescription {
        let entity = try namedBatchEntity(type, named: name)
        guard T.self == ManagedObject.self || entity.objectClass == T.self else {
            throw PersistError(.invalidRequest, "A batch request for \(T.self) names entity \(entity.name), which holds \(entity.objectClass) objects",
                               entity: entity.name)
        }
        return entity
    }
}
