import Foundation

/// Batch insert rows: values checked as a save checks them, to-ones taken as saved objects'
/// keys, uniqueness checked within the batch and against the store.
extension ManagedObjectContext {
    /// One dictionary's row: attributes set as `setValue(_:forKey:)` sets them, to-ones given as
    /// saved objects (or their IDs).
    func batchRow(_ values: [String: Any?], of entity: EntityDescription, index: Int) throws -> ContiguousArray<SQLValue> {
        let object = entity.objectClass.init(entity: entity, insertInto: nil)
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            do {
                if entity.attribute(named: key) == nil, let relationship = entity.relationship(named: key) {
                    try setBatchToOne(relationship, of: object, to: value)
                } else {
                    try object.setValue(value, forKey: key)
                }
            } catch var error as PersistError {
                error.message = "Batch insert into \(entity.name), row at index \(index): " + error.message
                throw error
            }
        }
        try checkBatchRow(object, index: index)
        return object.storage
    }

    /// The to-ones a fill closure set on its object (which is in no context), taken as keys.
    func takeDetachedToOnes(of object: ManagedObject, index: Int) throws {
        guard let related = object.related else { return }
        let entity = object.entity
        for (relationshipIndex, objects) in related.detached.sorted(by: { $0.key < $1.key }) where relationshipIndex < entity.relationships.count {
            do {
                try setBatchToOne(entity.relationships[relationshipIndex], of: object, to: objects.first)
            } catch var error as PersistError {
                error.message = "Batch insert into \(entity.name), row at index \(index): " + error.message
                throw error
            }
            related.problems[relationshipIndex] = nil
        }
        related.detached.removeAll()
        if let (_, problem) = related.problems.min(by: { $0.key < $1.key }) {
            throw PersistError(.invalidRequest, "Batch insert into \(entity.name), row at index \(index): " + problem, entity: entity.name)
        }
    }

    /// Puts a saved object's key (or NULL) in a to-one's slot. A batch insert sets to-ones
    /// only, and not those whose inverse is ordered (their place in the list is not known).
    private func setBatchToOne(_ relationship: RelationshipDescription, of object: ManagedObject, to value: Any?) throws {
        let entity = object.entity
        let name = "\(entity.name).\(relationship.name)"
        guard case .foreignKey(let slot, let positionSlot) = relationship.storage else {
            throw PersistError(.invalidRequest, "\(name) is a to-many: a batch insert sets attributes and to-ones only",
                               entity: entity.name, attribute: relationship.name)
        }
        guard positionSlot == nil else {
            throw PersistError(.invalidRequest, "\(name) is in an ordered to-many: a batch insert cannot place it there; "
                               + "insert such objects in a context", entity: entity.name, attribute: relationship.name)
        }
        var value = value
        while let some = value, let optional = some as? OptionalProtocol { value = optional.wrappedAny }   // an ObjectID? as a value
        let target: ObjectID?
        switch value {
        case nil, is NSNull: target = nil
        case let objectID as ObjectID: target = objectID
        case let related as ManagedObject: target = related.objectID
        case let other?:
            throw PersistError(.typeMismatch, "\(name) takes a \(relationship.destinationEntityName) (a saved object or its ObjectID), "
                               + "not a value of type \(ModelValueCoding.typeName(of: other))", entity: entity.name, attribute: relationship.name)
        }
        guard let target else {
            object.storage[slot] = .null
            return
        }
        // entity(of:) fails for another store's ID, and answers a known scope without the registry's lock.
        guard !target.isTemporary, (try? self.entity(of: target))?.isKind(of: relationship.destinationEntityName) == true else {
            throw PersistError(.invalidRequest, "\(name) takes a saved \(relationship.destinationEntityName) of this store, not \(target)",
                               entity: entity.name, attribute: relationship.name, objectIDs: [target])
        }
        object.storage[slot] = .integer(target.key)
    }

    /// What a save would refuse in a row: a required value missing, a NaN, a broken rule.
    func checkBatchRow(_ object: ManagedObject, index: Int) throws {
        let problems = valueProblems(of: object)
        guard let first = problems.first else { return }
        throw PersistError(.validation, "Batch insert into \(object.entity.name), row at index \(index): " + first.problem
                           + (problems.count > 1 ? " (and \(problems.count - 1) more problems)" : ""),
                           entity: object.entity.name, attribute: first.key, problems: problems.map(\.problem))
    }

    /// The rows to write after uniqueness: colliding rows of the batch resolved (or refused),
    /// rows colliding with stored ones refused or, with `.objectTrump`, turned into updates.
    struct BatchRows {
        var insert: SQLiteStore.BatchInsert
        /// For each requested row, the written row that holds its values.
        var rowForEach: [Int] = []
    }

    func batchUniqueness(_ entity: EntityDescription, _ rows: [ContiguousArray<SQLValue>]) throws -> BatchRows {
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
        var result = BatchRows(insert: SQLiteStore.BatchInsert(entity: entity))
        let requested: [Int]   // for each written row, the requested row it is
        if winner.indices.allSatisfy({ winner[$0] == $0 }) {
            // No two rows collide (the usual batch): every row is written, in order.
            result.insert.rows = rows
            requested = Array(rows.indices)
            result.rowForEach = requested
        } else {
            var position: [Int: Int] = [:]
            var written: [Int] = []
            for index in rows.indices where winner[index] == index {
                position[index] = result.insert.rows.count
                result.insert.rows.append(rows[index])
                written.append(index)
            }
            requested = written
            result.rowForEach = rows.indices.map { position[winner[$0]] ?? 0 }
        }
        result.insert.requestIndex = requested
        for (constraint, slots) in entity.uniquenessSlots.enumerated() where !slots.isEmpty {
            var byKey: [UniquenessKey: Int] = [:]
            var lookups: [SQLValue] = []
            for (index, row) in result.insert.rows.enumerated() {
                let key = UniquenessKey(row, slots: slots)
                if key.containsNull { continue }
                byKey[key] = index
                lookups += key.values
            }
            var collision: PersistError?
            try store.forEachRow(of: entity, constraint: constraint, holding: lookups) { storedKey, values, storedEntity in
                guard collision == nil, let index = byKey[values] else { return }
                // A row of another entity of the tree (a parent's constraint spans it) is never replaced.
                let sameEntity = storedEntity == nil || storedEntity == entity.name
                if upsert, sameEntity, result.insert.replacing[index] == nil || result.insert.replacing[index] == storedKey {
                    result.insert.replacing[index] = storedKey
                } else {
                    collision = batchCollision(entity, slots, result.insert.rows[index], requested[index],
                                               "\(storedEntity ?? entity.name) \(storedKey)")
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
