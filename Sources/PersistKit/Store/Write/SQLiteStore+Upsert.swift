/// Upserts (merge policy `.objectTrump`): an inserted row whose unique values a stored row
/// already holds updates that row instead, inside the save's transaction.
extension SQLiteStore {
    /// The stored rows that the plan's upserting inserts update, by plan position.
    ///
    /// Looked up before the save writes anything, once per constraint for all of an entity's
    /// inserts; a row the save deletes or moves off the values (``StoreWritePlan/Upsert``)
    /// does not count, a row it moves onto them (``StoreWritePlan/pendingTargets``) does.
    ///
    /// - Throws: ``PersistError`` `.constraintViolation` when an insert matches two different
    ///   rows (by two constraints): which one it should update cannot be decided.
    func upsertTargets(_ plan: StoreWritePlan, _ connection: SQLiteConnection) throws -> [Int: Int64] {
        guard !plan.upserts.isEmpty else { return [:] }
        // Each upserting entity's inserts, as (plan position, temporary key, values).
        var candidates: [ObjectIdentifier: (entity: EntityDescription, rows: [(Int, Int64, ContiguousArray<SQLValue>)])] = [:]
        var position = 0
        for run in plan.inserts {
            if plan.upserts[ObjectIdentifier(run.entity)] != nil {
                for (index, row) in run.rows.enumerated() {
                    candidates[ObjectIdentifier(run.entity), default: (run.entity, [])].rows.append((position + index, run.temporaryKeys[index], row))
                }
            }
            position += run.rows.count
        }
        var targets: [Int: Int64] = [:]
        for (id, group) in candidates {
            guard let upsert = plan.upserts[id] else { continue }
            var found: [Int: Set<Int64>] = [:]
            for (index, slots) in upsert.constraints.enumerated() where !slots.isEmpty {
                try findHolders(group.entity, group.rows, constraint: index, released: upsert.released[index], connection) { position, key in
                    found[position, default: []].insert(key)
                }
            }
            for (position, temporaryKey, _) in group.rows {
                var rows = found[position] ?? []
                if let pending = plan.pendingTargets[temporaryKey] { rows.insert(pending) }
                guard let row = rows.first else { continue }
                if rows.count > 1 { throw ambiguousUpsert(group.entity, temporaryKey, rows: rows.sorted()) }
                targets[position] = row
            }
        }
        return targets
    }

    /// Calls `body` with the plan position of each of `rows` whose values of the `constraint`th
    /// constraint a stored row holds (not one of `released`), and that row's key.
    ///
    /// - Throws: ``PersistError`` `.constraintViolation` when that row is of another entity of
    ///   the insert's inheritance tree (a constraint of a parent spans its sub-entities): an
    ///   insert updates a row of its own entity only (a Dog cannot become a stored Cat).
    private func findHolders(_ entity: EntityDescription, _ rows: [(Int, Int64, ContiguousArray<SQLValue>)], constraint: Int,
                             released: Set<Int64>, _ connection: SQLiteConnection, _ body: (Int, Int64) -> Void) throws {
        let slots = entity.uniquenessSlots[constraint]
        var positions: [UniquenessKey: Int] = [:]
        var tuples: [SQLValue] = []
        for (position, _, storage) in rows {
            let key = UniquenessKey(storage, slots: slots)
            // The context folded inserts with equal values into one: each key comes once.
            if key.containsNull || positions.updateValue(position, forKey: key) != nil { continue }
            tuples.append(key.first)
            tuples.append(contentsOf: key.rest)
        }
        var foreign: (position: Int, key: Int64, entity: String)?
        try forEachRow(of: entity, constraint: constraint, holding: tuples, connection) { key, values, entityName in
            guard !released.contains(key), let position = positions[values] else { return }
            if let entityName, entityName != entity.name {
                if foreign == nil { foreign = (position, key, entityName) }
            } else {
                body(position, key)
            }
        }
        if let foreign, let row = rows.first(where: { $0.0 == foreign.position }) {
            throw upsertAcrossEntities(entity, row.1, constraint: constraint,
                                       holder: foreign.entity, key: foreign.key)
        }
    }

    /// An insert whose unique values a row of another entity of its tree holds.
    private func upsertAcrossEntities(_ entity: EntityDescription, _ temporaryKey: Int64, constraint: Int, holder: String, key: Int64) -> PersistError {
        let inserted = ObjectID(scope: ObjectID.Scope(entityName: entity.name, storeIdentifier: identifier), key: temporaryKey, isTemporary: true)
        let held = ObjectID.Scope(entityName: holder, storeIdentifier: identifier).savedID(key)
        let keys = entity.uniquenessConstraints[constraint]
        return PersistError(.constraintViolation,
                            "Cannot upsert a new \(entity.name): its unique values (\(keys.joined(separator: ", "))) are held by \(holder) \(key), "
                            + "and a \(entity.name) cannot update a \(holder)'s row (the constraint of \(entity.uniquenessScope(constraint)) "
                            + "spans both entities)",
                            entity: entity.name, attribute: keys.joined(separator: ", "), objectIDs: [inserted, held])
    }

    private func ambiguousUpsert(_ entity: EntityDescription, _ temporaryKey: Int64, rows: [Int64]) -> PersistError {
        let scope = ObjectID.Scope(entityName: entity.name, storeIdentifier: identifier)
        let inserted = ObjectID(scope: scope, key: temporaryKey, isTemporary: true)
        let holders = rows.map(scope.savedID)
        let names = rows.map { "\(entity.name) \($0)" }.joined(separator: " and ")
        return PersistError(.constraintViolation,
                            "Cannot upsert a new \(entity.name): its unique values are held by \(names), and only one can be updated",
                            entity: entity.name, attribute: entity.uniquenessConstraints.flatMap { $0 }.joined(separator: ", "),
                            objectIDs: [inserted] + holders)
    }

    /// Writes every column of an upserted insert over the row `key` (the insert's values win,
    /// nil ones too, as Core Data's `NSMergeByPropertyObjectTrumpMergePolicy` does); returns
    /// the row's new version.
    func upsertRow(_ storage: ContiguousArray<SQLValue>, into key: Int64, of entity: EntityDescription,
                  _ assigned: AssignedKeys, _ connection: SQLiteConnection, _ change: inout StoreChange) throws -> Int64 {
        let slots = Array(entity.columns.indices)
        let statement = try connection.cachedStatement(cachedSQL(.update(ObjectIdentifier(entity), SlotSet(slots), false)) {
            SchemaSQL.update(for: entity, slots: slots, checkVersion: false)
        })
        let references = Set(entity.foreignKeySlots)
        for slot in slots {
            if references.contains(slot), case .integer(let reference) = storage[slot], reference < 0 {
                statement.bind(try assigned.resolve(reference, entity: entity, slot: slot), at: Int32(slot + 1))
            } else {
                try statement.bind(storage[slot], at: Int32(slot + 1))
            }
        }
        statement.bind(key, at: Int32(slots.count + 1))
        try statement.run()
        change.updated[entity.name, default: []].append(key)
        return try connection.singleInt("SELECT \(SQLName.quote(SchemaSQL.version)) FROM \(SchemaSQL.table(of: entity)) WHERE "
                                        + "\(SQLName.quote(SchemaSQL.primaryKey)) = ?", [.integer(key)]) ?? 1
    }

    /// Adds an ordered list's members to the owner's stored ones, after them (members it
    /// already has keep their place).
    func appendLinks(_ ordered: [Int64], table: JoinTable, owner: Int64, _ assigned: AssignedKeys,
                     _ connection: SQLiteConnection) throws {
        let name = SQLName.quote(table.name)
        let ownerColumn = SQLName.quote(JoinTable.ownerColumn), position = SQLName.quote(JoinTable.positionColumn)
        let insert = try connection.cachedStatement(
            "INSERT OR IGNORE INTO \(name) (\(ownerColumn), \(SQLName.quote(JoinTable.destinationColumn)), \(position)) "
            + "VALUES (?1, ?2, (SELECT coalesce(max(\(position)), -1) + 1 FROM \(name) WHERE \(ownerColumn) = ?1))")
        for reference in ordered {
            insert.reset()
            try insert.bind([.integer(owner), .integer(try assigned.resolve(reference, entity: nil, slot: nil))])
            try insert.run()
        }
    }

    /// One-to-ones stay one-to-one: an upserted row (or one that absorbed other inserts) took
    /// its partners from the insert that won, so rows of the other side that still point at
    /// it, other than its new partner, let go (their foreign key becomes NULL).
    ///
    /// - Returns: the rows changed, by entity name.
    func unlinkOneToOnePartners(_ plan: StoreWritePlan, _ assigned: AssignedKeys, _ connection: SQLiteConnection,
                                _ change: inout StoreChange) throws -> [String: [Int64]] {
        let absorbing = Set(plan.aliases.values)
        var unlinked: [String: [Int64]] = [:]
        var position = 0
        for run in plan.inserts {
            let pairs = oneToOnes(of: run.entity)
            for (index, storage) in run.rows.enumerated() {
                defer { position += 1 }
                guard !pairs.isEmpty, assigned.targets[position] != nil || absorbing.contains(run.temporaryKeys[index]) else { continue }
                for (slot, partner, partnerSlot) in pairs {
                    var keep: SQLValue = .null
                    if case .integer(let reference) = storage[slot] { keep = .integer(try assigned.resolve(reference, entity: run.entity, slot: slot)) }
                    let keys = try unlink(partner, slot: partnerSlot, from: assigned.keys[position], keeping: keep, connection)
                    unlinked[partner.name, default: []] += keys
                    change.updated[partner.name, default: []] += keys
                }
            }
        }
        return unlinked
    }

    /// An entity's to-ones whose inverse is a to-one: (slot, the other entity, its slot).
    private func oneToOnes(of entity: EntityDescription) -> [(Int, EntityDescription, Int)] {
        entity.relationships.compactMap { relationship in
            guard case .foreignKey(let slot, _) = relationship.storage, let inverseName = relationship.inverseName,
                  let partner = model.entity(named: relationship.destinationEntityName),
                  case .foreignKey(let partnerSlot, _)? = partner.relationship(named: inverseName)?.storage else { return nil }
            return (slot, partner, partnerSlot)
        }
    }

    /// Clears `slot` of the rows of `entity` that point at `key`, but the row `keeping`.
    private func unlink(_ entity: EntityDescription, slot: Int, from key: Int64, keeping: SQLValue,
                        _ connection: SQLiteConnection) throws -> [Int64] {
        let table = SQLName.quote(entity.name), column = SQLName.quote(entity.columns[slot].name)
        let primaryKey = SQLName.quote(SchemaSQL.primaryKey)
        let select = try connection.cachedStatement("SELECT \(primaryKey) FROM \(table) WHERE \(column) = ? AND \(primaryKey) IS NOT ?")
        try select.bind([.integer(key), keeping])
        var keys: [Int64] = []
        while try select.step() { keys.append(select.int64(at: 0)) }
        select.reset()
        for row in keys {
            try connection.singleInt("UPDATE \(table) SET \(column) = NULL, \(SQLName.quote(SchemaSQL.version)) = "
                                     + "\(SQLName.quote(SchemaSQL.version)) + 1 WHERE \(primaryKey) = ?", [.integer(row)])
        }
        return keys
    }
}
