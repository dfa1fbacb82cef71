extension ManagedObjectContext {
    /// Runs a batch insert: one transaction, no managed objects made.
    ///
    /// ```swift
    /// let result = try context.execute(BatchInsertRequest<Contact>(objects: rows))
    /// ```
    /// - Throws: ``PersistError`` naming the row's index: `.unknownKey` or `.typeMismatch` for
    ///   a value, `.validation` for a missing required value or a broken rule,
    ///   `.constraintViolation` for a uniqueness collision (unless the merge policy is
    ///   `.objectTrump`, which updates the stored object); `.invalidRequest` for an entity not
    ///   in the model. Nothing is written when it throws.
    @discardableResult
    public func execute<T: ManagedObject>(_ request: BatchInsertRequest<T>) throws -> BatchResult {
        processPendingChanges()
        let entity = try batchEntity(T.self, named: request.entityName)
        var rows: [ContiguousArray<SQLValue>] = []
        switch request.source {
        case .dictionaries(let objects):
            rows.reserveCapacity(objects.count)
            for (index, values) in objects.enumerated() {
                let object = entity.objectClass.init(entity: entity, insertInto: nil)
                for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                    do {
                        try object.setValue(value, forKey: key)
                    } catch var error as PersistError {
                        error.message = "Batch insert into \(entity.name), row at index \(index): " + error.message
                        throw error
                    }
                }
                try checkBatchRow(object, index: index)
                rows.append(object.storage)
            }
        case .fill(let fill):
            while true {
                let object = entity.objectClass.init(entity: entity, insertInto: nil)
                guard let typed = object as? T else {
                    throw PersistError(.invalidRequest, "Entity \(entity.name) holds \(entity.objectClass) objects, not \(T.self)", entity: entity.name)
                }
                if fill(typed) { break }
                try checkBatchRow(object, index: rows.count)
                rows.append(object.storage)
            }
        }
        let plan = try batchUniqueness(entity, rows)
        let keys = try store.batchInsert(entity, rows: plan.rows, replacing: plan.replacing)
        processPendingChanges()
        return BatchResult(objectIDs: plan.rowForEach.map { permanentID(entity, keys[$0]) })
    }

    /// Runs a batch update: one SQL `UPDATE` of the saved rows the predicate matches.
    ///
    /// ```swift
    /// try context.execute(BatchUpdateRequest<TaskItem>(predicate: \.isComplete == true, propertiesToUpdate: ["notes": nil]))
    /// ```
    /// - Throws: ``PersistError`` `.unknownKey`, `.typeMismatch` or `.validation` for a value,
    ///   `.constraintViolation` when the new values collide with a uniqueness constraint,
    ///   `.invalidPredicate`, `.invalidRequest`. Nothing is written when it throws.
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
        let query = try StoreQuery(entity: entity, predicate: request.predicate?.node, sorts: [])
        let keys: [Int64]
        do {
            keys = try store.batchUpdate(query, slots: slots, values: slots.map { values.storage[$0] })
        } catch var error as PersistError where error.code == .constraintViolation {
            error.message = "Batch update of \(entity.name) would break a uniqueness constraint; nothing was changed (\(error.message))"
            error.entity = entity.name
            throw error
        }
        processPendingChanges()
        return BatchResult(objectIDs: keys.map { permanentID(entity, $0) })
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
        var keys: [Int64]
        switch request.target {
        case .predicate(let predicate):
            keys = try store.matchingKeys(StoreQuery(entity: entity, predicate: predicate?.node, sorts: []))
        case .objectIDs(let objectIDs):
            for objectID in objectIDs {
                if objectID.entityName != entity.name || objectID.storeIdentifier != store.identifier || objectID.isTemporary {
                    throw PersistError(.invalidRequest, objectID.isTemporary ? "A batch delete takes saved objects only: \(objectID) is not saved"
                                       : "A batch delete of \(entity.name) was given \(objectID), an object of another entity or store",
                                       entity: entity.name, objectIDs: [objectID])
                }
            }
            let requested = Set(objectIDs.map(\.key))
            keys = try store.matchingKeys(StoreQuery(entity: entity, predicate: nil, sorts: [])).filter(requested.contains)
        }
        let deleted = try store.batchDelete(entity, keys: keys)
        processPendingChanges()
        var objectIDs = (deleted[entity.name] ?? []).map { permanentID(entity, $0) }
        for (name, rows) in deleted.sorted(by: { $0.key < $1.key }) where name != entity.name {
            guard let other = model.entity(named: name) else { continue }
            objectIDs += rows.map { permanentID(other, $0) }
        }
        return BatchResult(objectIDs: objectIDs)
    }

    // MARK: Helpers

    private func permanentID(_ entity: EntityDescription, _ key: Int64) -> ObjectID {
        ObjectID(entityName: entity.name, storeIdentifier: store.identifier, key: key, isTemporary: false)
    }

    private func batchEntity<T: ManagedObject>(_ type: T.Type, named name: String?) throws -> EntityDescription {
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

    /// What a save would refuse in a row: a required value missing, a NaN, a broken rule.
    private func checkBatchRow(_ object: ManagedObject, index: Int) throws {
        let problems = valueProblems(of: object)
        guard let first = problems.first else { return }
        throw PersistError(.validation, "Batch insert into \(object.entity.name), row at index \(index): " + first.problem
                           + (problems.count > 1 ? " (and \(problems.count - 1) more problems)" : ""),
                           entity: object.entity.name, attribute: first.key, problems: problems.map(\.problem))
    }

    /// The rows to write after uniqueness: colliding rows of the batch resolved (or refused),
    /// rows colliding with stored ones refused or, with `.objectTrump`, turned into updates.
    private struct BatchRows {
        var rows: [ContiguousArray<SQLValue>] = []
        var replacing: [Int: Int64] = [:]
        /// For each requested row, the written row that holds its values.
        var rowForEach: [Int] = []
    }

    private func batchUniqueness(_ entity: EntityDescription, _ rows: [ContiguousArray<SQLValue>]) throws -> BatchRows {
        let upsert = mergePolicy == .objectTrump
        var winner = Array(rows.indices)   // the row whose values a row's object ends with
        for slots in entity.uniquenessSlots where !slots.isEmpty {
            var holders: [UniquenessKey: Int] = [:]
            for index in rows.indices where winner[index] == index {
                let key = UniquenessKey(rows[index], slots: slots)
                if key.containsNull { continue }
                if let earlier = holders[key] {
                    guard upsert else { throw batchCollision(entity, slots, rows[index], index, "the row at index \(earlier)") }
                    winner[earlier] = index
                }
                holders[key] = index
            }
        }
        for index in rows.indices.reversed() where winner[index] != index { winner[index] = winner[winner[index]] }
        var result = BatchRows()
        var position: [Int: Int] = [:]
        var requested: [Int] = []   // for each written row, the requested row it is
        for index in rows.indices where winner[index] == index {
            position[index] = result.rows.count
            result.rows.append(rows[index])
            requested.append(index)
        }
        result.rowForEach = rows.indices.map { position[winner[$0]] ?? 0 }
        for slots in entity.uniquenessSlots where !slots.isEmpty {
            var byKey: [UniquenessKey: Int] = [:]
            var lookups: [SQLValue] = []
            for (index, row) in result.rows.enumerated() {
                let key = UniquenessKey(row, slots: slots)
                if key.containsNull { continue }
                byKey[key] = index
                lookups += key.values
            }
            var collision: PersistError?
            try store.forEachRow(of: entity, holding: lookups, at: slots) { storedKey, values in
                guard collision == nil, let index = byKey[values] else { return }
                if upsert, result.replacing[index] == nil || result.replacing[index] == storedKey {
                    result.replacing[index] = storedKey
                } else {
                    collision = batchCollision(entity, slots, result.rows[index], requested[index], "\(entity.name) \(storedKey)")
                }
            }
            if let collision { throw collision }
        }
        return result
    }

    private func batchCollision(_ entity: EntityDescription, _ slots: [Int], _ row: ContiguousArray<SQLValue>, _ index: Int,
                                _ holder: String) -> PersistError {
        let names = slots.map { entity.attributes[$0].name }
        let shown = slots.map { ValueText.describe(row[$0], as: entity.attributes[$0].type) }
        return PersistError(.constraintViolation,
            "Batch insert into \(entity.name), row at index \(index): (\(names.joined(separator: ", "))) = (\(shown.joined(separator: ", "))) "
            + "is already used by \(holder); nothing was written",
            entity: entity.name, attribute: names.joined(separator: ", "))
    }
}
