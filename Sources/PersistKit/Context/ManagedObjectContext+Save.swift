import Foundation

extension ManagedObjectContext {
    /// Saves every change in one SQLite transaction (`BEGIN IMMEDIATE`), or none.
    ///
    /// Validation runs first and reports every problem in one error. When the save fails,
    /// the store and the context are exactly as they were: fix the problem and save again.
    ///
    /// - Throws: ``PersistError`` `.validation` (required value missing, NaN, a value that
    ///   could not be encoded, an object's own `validateForSave()`), `.constraintViolation`
    ///   (uniqueness), `.conflict` (another context or process changed or deleted an object
    ///   since this context read it), or an SQLite error.
    public func save() throws {
        refreshRevertedObjects()
        processPendingChanges()
        let inserts = insertedObjects
        let updates = changed.values.filter { ($0.isUpdated || $0.encodingProblems?.isEmpty == false) && !$0.deletedFlag }
        let deletes = deletedObjects
        let deletedElsewhere = changed.values.filter { $0.deletedFlag && deleted[ObjectIdentifier($0)] == nil && $0.isChangedSinceRead }
        guard !inserts.isEmpty || !updates.isEmpty || !deletes.isEmpty || !deletedElsewhere.isEmpty else { return }
        if !deletedElsewhere.isEmpty {
            throw PersistError(.conflict, "Cannot save changes to objects that another context or process deleted",
                               entity: deletedElsewhere.first?.entity.name, objectIDs: deletedElsewhere.map(\.objectID))
        }
        try validate(inserts + updates)

        var insertedKeys: [Int64] = []
        insertedKeys.reserveCapacity(inserts.count)
        let origin = contextIdentity
        let checkVersion = mergePolicy == .error
        _ = try store.save(origin: origin) { connection in
            var change = StoreChange(sequence: 0, origin: origin)
            // One statement lookup per entity, not per object.
            var insertStatement: (entity: EntityDescription, statement: SQLiteStatement)?
            var keysByEntity: [ObjectIdentifier: (name: String, keys: [Int64])] = [:]
            var currentKeys: [Int64] = []
            var nextKeys: [ObjectIdentifier: (entity: EntityDescription, next: Int64)] = [:]
            var nextKey: Int64 = 0
            for object in inserts {
                if insertStatement?.entity !== object.entity {
                    if let previous = insertStatement?.entity {
                        keysByEntity[ObjectIdentifier(previous), default: (previous.name, [])].keys.append(contentsOf: currentKeys)
                        currentKeys.removeAll(keepingCapacity: true)
                        nextKeys[ObjectIdentifier(previous)] = (previous, nextKey)
                    }
                    insertStatement = (object.entity, try connection.cachedStatement(insertSQL(for: object.entity)))
                    nextKey = try nextKeys[ObjectIdentifier(object.entity)]?.next ?? firstFreeKey(object.entity, connection)
                }
                guard let statement = insertStatement?.statement else { continue }
                // Every parameter is bound again below: a reset without clearing bindings.
                statement.rewind()
                statement.bind(nextKey, at: 1)
                var index: Int32 = 2
                for value in object.storage {
                    try statement.bind(value, at: index)
                    index += 1
                }
                try statement.run()
                insertedKeys.append(nextKey)
                currentKeys.append(nextKey)
                nextKey += 1
            }
            if let last = insertStatement?.entity { nextKeys[ObjectIdentifier(last)] = (last, nextKey) }
            if let last = insertStatement?.entity {
                keysByEntity[ObjectIdentifier(last), default: (last.name, [])].keys.append(contentsOf: currentKeys)
            }
            for (entity, next) in nextKeys.values {
                try connection.singleInt(
                    "INSERT OR REPLACE INTO \(SQLName.quote(SQLiteStore.metadataTable)) (key, value) VALUES (?, ?)",
                    [.text(SchemaSQL.highWaterKey(for: entity)), .text(String(next - 1))])
            }
            for (name, keys) in keysByEntity.values { change.inserted[name, default: []].append(contentsOf: keys) }
            var conflicts: [ManagedObject] = []
            // Objects changing the same columns share one statement: found once per column set.
            var updateStatements: [UpdateStatementKey: SQLiteStatement] = [:]
            for object in updates {
                let slots = changedSlots(of: object)
                let statementKey = UpdateStatementKey(entity: ObjectIdentifier(object.entity), slots: SlotSet(slots))
                let statement: SQLiteStatement
                if let known = updateStatements[statementKey] {
                    statement = known
                    statement.reset()
                } else {
                    statement = try connection.cachedStatement(updateSQL(for: object.entity, slots: slots, checkVersion: checkVersion))
                    updateStatements[statementKey] = statement
                }
                var index: Int32 = 1
                for slot in slots {
                    try statement.bind(object.storage[slot], at: index)
                    index += 1
                }
                statement.bind(object.objectID.key, at: index)
                if checkVersion { statement.bind(object.version, at: index + 1) }
                try statement.run()
                if connection.changes != 1 {
                    conflicts.append(object)
                } else {
                    change.updated[object.entity.name, default: []].append(object.objectID.key)
                }
            }
            for object in deletes {
                let statement = try connection.cachedStatement(SchemaSQL.delete(for: object.entity))
                statement.bind(object.objectID.key, at: 1)
                statement.bind(object.version, at: 2)
                try statement.run()
                if connection.changes != 1 {
                    // Already gone is fine (nothing is lost); changed since read is a conflict.
                    let exists = try connection.singleInt(
                        "SELECT count(*) FROM \(SQLName.quote(object.entity.name)) WHERE \(SQLName.quote(SchemaSQL.primaryKey)) = ?",
                        [.integer(object.objectID.key)]) ?? 0
                    if exists > 0 && checkVersion {
                        conflicts.append(object)
                    } else if exists > 0 {
                        try connection.execute("DELETE FROM \(SQLName.quote(object.entity.name)) WHERE \(SQLName.quote(SchemaSQL.primaryKey)) = \(object.objectID.key)")
                    }
                }
                change.deleted[object.entity.name, default: []].append(object.objectID.key)
            }
            if !conflicts.isEmpty {
                throw PersistError(.conflict,
                    "Another context or process changed or deleted \(conflicts.count == 1 ? "this object" : "these objects") since this context read \(conflicts.count == 1 ? "it" : "them"): "
                    + conflicts.map { object in
                        object.deletedFlag ? "\(object.entity.name) \(object.objectID.key) (deleted here)"
                            : "\(object.entity.name) \(object.objectID.key) (keys changed here: \(changedKeyNames(of: object).joined(separator: ", ")))"
                    }.joined(separator: "; "),
                    entity: conflicts.first?.entity.name, objectIDs: conflicts.map(\.objectID))
            }
            return change
        }
        // Committed: only now does the context change. (Its own entry in the store's log is
        // skipped by origin; the merge position must not move past other contexts' saves.)
        var objects: (entity: EntityDescription, registry: EntityObjects)?
        if let entity = inserts.first?.entity {
            // Grown once, not rehashed step by step while 100,000 objects register.
            let registry = entityObjects(entity)
            registry.byKey.reserveCapacity(registry.byKey.count + inserts.count)
        }
        for (object, key) in zip(inserts, insertedKeys) {
            object.objectID = ObjectID(entityName: object.entity.name, storeIdentifier: store.identifier, key: key, isTemporary: false)
            object.insertedFlag = false
            object.version = 1
            if objects?.entity !== object.entity { objects = (object.entity, entityObjects(object.entity)) }
            objects?.registry.byKey[key] = object
        }
        insertedOrder.removeAll(keepingCapacity: false)
        insertedCount = 0
        for object in updates {
            object.version += 1
            object.committedStorage = nil
        }
        for object in changed.values where !object.deletedFlag { object.committedStorage = nil }
        changed.removeAll()
        for object in deletes {
            registered[ObjectIdentifier(object.entity)]?.byKey[object.objectID.key] = nil
            object.committedStorage = nil
            object.managedObjectContext = nil
        }
        deleted.removeAll()
    }

    /// Objects changed and then set back to what was read have nothing to save, but another
    /// context may have saved newer values meanwhile (a merge keeps local changes): read them
    /// again so the context and its observers show what the store holds.
    private func refreshRevertedObjects() {
        var keysByEntity: [ObjectIdentifier: (EntityDescription, [Int64])] = [:]
        for object in changed.values where !object.deletedFlag && !object.isChangedSinceRead && object.encodingProblems == nil {
            object.committedStorage = nil
            changed[ObjectIdentifier(object)] = nil
            object.version = -1
            keysByEntity[ObjectIdentifier(object.entity), default: (object.entity, [])].1.append(object.objectID.key)
        }
        for (entity, keys) in keysByEntity.values {
            _ = try? readObjects(entity: entity, keys: keys.sorted())
        }
    }

    private func validate(_ objects: [ManagedObject]) throws {
        var problems: [String] = []
        var involved: [ObjectID] = []
        var ownErrors: [PersistError] = []
        var modelled: [ObjectIdentifier: Bool] = [:]
        for object in objects {
            let before = problems.count
            let entity = object.entity
            let inModel: Bool
            if let known = modelled[ObjectIdentifier(entity)] {
                inModel = known
            } else {
                inModel = model.entity(named: entity.name) === entity
                modelled[ObjectIdentifier(entity)] = inModel
            }
            if !inModel {
                problems.append("\(entity.name) is not an entity of this context's model")
            }
            let storage = object.storage
            for slot in entity.requiredSlots where slot < storage.count && storage[slot].isNull {
                problems.append("\(entity.name).\(entity.attributes[slot].name) is required but not set")
            }
            for slot in entity.realSlots where slot < storage.count {
                if case .real(let number) = storage[slot], number.isNaN {
                    problems.append("\(entity.name).\(entity.attributes[slot].name) is NaN, which SQLite cannot store")
                }
            }
            if let encodingProblems = object.encodingProblems {
                for (slot, problem) in encodingProblems.sorted(by: { $0.key < $1.key }) where slot < entity.attributes.count {
                    problems.append("\(entity.name).\(entity.attributes[slot].name) could not be encoded: \(problem)")
                }
            }
            do {
                try object.validateForSave()
            } catch let error as PersistError {
                ownErrors.append(error)
                problems.append(contentsOf: error.problems.isEmpty ? [error.message] : error.problems)
            } catch {
                problems.append("\(entity.name): \(error)")
            }
            if problems.count > before { involved.append(object.objectID) }
        }
        guard !problems.isEmpty else { return }
        if problems.count == 1, let single = ownErrors.first, ownErrors.count == 1 {
            var error = single
            error.entity = error.entity ?? objects.first(where: { involved.contains($0.objectID) })?.entity.name
            error.objectIDs = involved
            if error.problems.isEmpty { error.problems = problems }
            throw error
        }
        let message = problems.count == 1 ? "Cannot save: " + problems[0]
            : "Cannot save: \(problems.count) validation problems"
        throw PersistError(.validation, message, entity: objects.first(where: { involved.contains($0.objectID) })?.entity.name,
                           objectIDs: involved, problems: problems)
    }

    /// The first primary key a save may give: above every key the entity ever had (the
    /// high-water mark, which deletions do not lower) and every row present. Read inside the
    /// save's write transaction, so other processes cannot take the same keys.
    private func firstFreeKey(_ entity: EntityDescription, _ connection: SQLiteConnection) throws -> Int64 {
        let highWater = try connection.singleText(
            "SELECT value FROM \(SQLName.quote(SQLiteStore.metadataTable)) WHERE key = ?",
            [.text(SchemaSQL.highWaterKey(for: entity))]).flatMap { Int64($0) } ?? 0
        let largest = try connection.singleInt(
            "SELECT max(\(SQLName.quote(SchemaSQL.primaryKey))) FROM \(SQLName.quote(entity.name))") ?? 0
        return max(highWater, largest) + 1
    }

    func changedSlots(of object: ManagedObject) -> [Int] {
        guard let committed = object.committedStorage else { return [] }
        return object.storage.indices.filter { !SQLValue.identical(committed[$0], object.storage[$0]) }
    }

    func changedKeyNames(of object: ManagedObject) -> [String] {
        changedSlots(of: object).map { object.entity.attributes[$0].name }
    }

    private func insertSQL(for entity: EntityDescription) -> String {
        let key = UpdateKey(entity: ObjectIdentifier(entity), slots: [-1], checkVersion: false)
        if let sql = statementSQL[key] { return sql }
        let sql = SchemaSQL.insert(for: entity)
        statementSQL[key] = sql
        return sql
    }

    private func updateSQL(for entity: EntityDescription, slots: [Int], checkVersion: Bool) -> String {
        let key = UpdateKey(entity: ObjectIdentifier(entity), slots: slots, checkVersion: checkVersion)
        if let sql = statementSQL[key] { return sql }
        let sql = SchemaSQL.update(for: entity, slots: slots, checkVersion: checkVersion)
        statementSQL[key] = sql
        return sql
    }
}

/// The key of an UPDATE statement within one save: the entity and the columns it sets.
struct UpdateStatementKey: Hashable {
    let entity: ObjectIdentifier
    let slots: SlotSet
}

extension ManagedObject {
    /// Whether the object has values that differ from those last read.
    var isChangedSinceRead: Bool {
        guard let committed = committedStorage else { return false }
        return !SQLValue.identical(committed, storage)
    }
}
