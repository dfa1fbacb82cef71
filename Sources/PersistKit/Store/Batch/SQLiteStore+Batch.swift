/// Batch requests, in SQL, without objects: each is one write transaction that records its
/// persistent-history transaction (so other processes merge it exactly) and logs a change
/// every context of the container merges (and its controllers diff).
extension SQLiteStore {
    /// A batch insert as the store runs it.
    struct BatchInsert {
        let entity: EntityDescription
        /// Full slot storages; a to-one's slot holds a saved object's key, or NULL.
        var rows: [ContiguousArray<SQLValue>] = []
        /// Rows that overwrite a stored row instead (an upsert), by row index.
        var replacing: [Int: Int64] = [:]
        /// Each row's index in the request, for error messages.
        var requestIndex: [Int] = []
        /// Recorded in the history transaction.
        var author: String?
        var contextName: String?
    }

    /// Inserts rows; a row with an entry in `replacing` overwrites that stored row's attributes
    /// (and the to-ones it sets) instead. Returns each row's primary key, in order.
    ///
    /// - Throws: ``PersistError`` naming the row's index when a to-one refers to a row the
    ///   store does not hold, or SQLite refuses a row (a uniqueness index, another process
    ///   having written in between); nothing is written then.
    func batchInsert(_ batch: BatchInsert) throws -> [Int64] {
        let entity = batch.entity
        var keys: [Int64] = []
        keys.reserveCapacity(batch.rows.count)
        _ = try save(origin: 0) { connection in
            var changes = BatchChanges()
            try checkReferences(batch, connection)
            var writer = try ChunkedRowInsert(entity, rows: max(0, batch.rows.count - batch.replacing.count), store: self, connection)
            let firstKey = try firstFreeKey(entity, connection)
            var nextKey = firstKey
            // The request's index of each row given to the writer, to name the one SQLite refuses.
            var inserted: [Int] = []
            inserted.reserveCapacity(max(0, batch.rows.count - batch.replacing.count))
            func refused(_ error: PersistError, row: Int) -> PersistError {
                var error = error
                let requested = row < batch.requestIndex.count ? batch.requestIndex[row] : row
                error.message = "Batch insert into \(entity.name), row at index \(requested): " + error.message + "; nothing was written"
                error.entity = error.entity ?? entity.name
                return error
            }
            func writing(_ body: () throws -> Void) throws {
                do {
                    try body()
                } catch let error as PersistError {
                    throw refused(error, row: writer.written < inserted.count ? inserted[writer.written] : inserted.last ?? 0)
                }
            }
            for (index, stored) in batch.rows.enumerated() {
                var row = stored
                if let externalData { try externalize(&row, of: entity, externalData) }
                if let existing = batch.replacing[index] {
                    try writing { try writer.finish() }   // rows are written in the request's order
                    do {
                        let slots = try overwrite(existing, with: row, of: entity, connection)
                        keys.append(existing)
                        changes.update([existing], of: entity, slots: slots)
                    } catch let error as PersistError {
                        throw refused(error, row: index)
                    }
                } else {
                    inserted.append(index)
                    try writing { try writer.add(key: nextKey, row) }
                    keys.append(nextKey)
                    nextKey += 1
                }
            }
            try writing { try writer.finish() }
            if nextKey > firstKey {
                try recordHighWaterMark(entity, nextKey - 1, connection)
                changes.insert(Array(firstKey..<nextKey), of: entity)
            }
            return try record(changes, author: batch.author, contextName: batch.contextName, connection)
        }
        return keys
    }

    /// An upsert: writes a batch row over the stored row `key`: every attribute, and the
    /// to-ones the row sets (a row that does not name a relationship leaves the stored one
    /// alone). Returns the slots written.
    private func overwrite(_ key: Int64, with row: ContiguousArray<SQLValue>, of entity: EntityDescription,
                           _ connection: SQLiteConnection) throws -> SlotSet {
        var slots = Array(entity.attributes.indices)
        for relationship in entity.relationships {
            if case .foreignKey(let slot, _) = relationship.storage, slot < row.count, !row[slot].isNull { slots.append(slot) }
        }
        let update = try connection.cachedStatement(cachedSQL(.update(ObjectIdentifier(entity), SlotSet(slots), false)) {
            SchemaSQL.update(for: entity, slots: slots, checkVersion: false)
        })
        update.reset()
        try update.bind(slots.map { row[$0] } + [.integer(key)])
        try update.run()
        return SlotSet(slots)
    }

    /// Refuses a batch whose to-ones refer to rows the store does not hold (inside the
    /// transaction: a row deleted meanwhile by another process is seen).
    private func checkReferences(_ batch: BatchInsert, _ connection: SQLiteConnection) throws {
        let entity = batch.entity
        for relationship in entity.relationships {
            guard case .foreignKey(let slot, _) = relationship.storage,
                  let destination = model.entity(named: relationship.destinationEntityName) else { continue }
            var referenced = Set<Int64>()
            for row in batch.rows { if case .integer(let key) = row[slot] { referenced.insert(key) } }
            guard !referenced.isEmpty else { continue }
            let statement = try connection.prepare("SELECT \(SQLName.quote(SchemaSQL.primaryKey)) FROM \(destination.rowsWithSubentitiesSQL) "
                + "WHERE \(SQLName.quote(SchemaSQL.primaryKey)) IN (SELECT value FROM json_each(?))")
            try statement.bind([Self.jsonArray(referenced.sorted())])
            var found = Set<Int64>()
            while try statement.step() { found.insert(statement.int64(at: 0)) }
            guard found.count < referenced.count else { continue }
            for (index, row) in batch.rows.enumerated() {
                guard case .integer(let key) = row[slot], !found.contains(key) else { continue }
                let requested = index < batch.requestIndex.count ? batch.requestIndex[index] : index
                throw PersistError(.constraintViolation,
                    "Batch insert into \(entity.name), row at index \(requested): \(relationship.name) refers to "
                    + "\(destination.name) \(key), which the store does not hold; nothing was written",
                    entity: entity.name, attribute: relationship.name,
                    objectIDs: [ObjectID(entityName: destination.name, storeIdentifier: identifier, key: key, isTemporary: false)])
            }
        }
    }

    /// Sets `values` in `slots` of every row the queries match; returns their keys, per query.
    /// Several queries are the concrete entities of an inheritance tree's request (one
    /// `UPDATE` each, in one transaction), so that each row is recorded as its own entity's.
    func batchUpdate(_ queries: [StoreQuery], slots: [Int], values: [SQLValue], author: String?, contextName: String?) throws -> [[Int64]] {
        var keys: [[Int64]] = []
        _ = try save(origin: 0) { connection in
            var changes = BatchChanges()
            keys = []
            for query in queries {
                let entity = query.entity
                // The predicate's SQL numbers its parameters (?1...): the new values come after them.
                let first = query.bindings.count + 1
                let sets = slots.enumerated().map { SQLName.quote(entity.columns[$0.element].name) + " = ?\(first + $0.offset)" }
                    + ["\(SQLName.quote(SchemaSQL.version)) = \(SQLName.quote(SchemaSQL.version)) + 1"]
                let sql = "UPDATE \(Self.batchTarget(entity)) SET " + sets.joined(separator: ", ")
                    + Self.batchCondition(query.whereSQL, of: entity)
                let statement = try connection.prepare(sql)
                try statement.bind(query.bindings + values)
                // The keys from the update hook, not `RETURNING`: that makes SQLite collect the
                // matching rows first and look each one up again (3x the update's own cost).
                let updated = try ChangedRowCollector.keys(.update, in: entity.tableName, on: connection) { try statement.run() }
                changes.update(updated, of: entity, slots: SlotSet(slots))
                keys.append(updated)
            }
            return try record(changes, author: author, contextName: contextName, connection)
        }
        return keys
    }

    /// What a batch `UPDATE` or `DELETE` names: the entity's table, or in an inheritance tree
    /// the tree's table under the entity's name (a predicate's correlated subqueries name it).
    static func batchTarget(_ entity: EntityDescription) -> String {
        entity.inheritance == nil ? SQLName.quote(entity.name) : SchemaSQL.table(of: entity) + " AS " + SQLName.quote(entity.name)
    }

    /// ` WHERE ...` of a batch statement: the predicate's SQL, and in an inheritance tree the
    /// entity's own rows only.
    static func batchCondition(_ whereSQL: String?, of entity: EntityDescription) -> String {
        var conditions = whereSQL.map { ["(" + $0 + ")"] } ?? []
        if entity.inheritance != nil {
            conditions.insert(SQLName.quote(EntityInheritance.entityColumn) + " = " + SQLName.literal(entity.name), at: 0)
        }
        return conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    }

    /// Deletes the rows the queries match (only those with keys in `only`, when given) with
    /// their delete rules, in SQL: cascades to any depth, nullifies the references to deleted
    /// rows, and refuses (nothing deleted) when a `.deny` relationship of a deleted row holds a
    /// row not deleted too. The rows are chosen inside the transaction. Several queries are the
    /// concrete entities of an inheritance tree's request.
    ///
    /// - Returns: The deleted keys per entity (each row under its own entity).
    func batchDelete(_ queries: [StoreQuery], only requested: Set<Int64>?, author: String?, contextName: String?) throws -> [String: [Int64]] {
        var deleted: [String: [Int64]] = [:]
        _ = try save(origin: 0) { connection in
            var changes = BatchChanges()
            deleted = [:]
            if queries.allSatisfy({ BatchDeletion.isDirect($0.entity, model: model) }) {
                for query in queries {
                    let keys = try Self.deleteDirectly(query, only: requested, connection)
                    changes.delete(keys, of: query.entity)
                    if !keys.isEmpty { deleted[query.entity.name] = keys }
                }
                return try record(changes, author: author, contextName: contextName, connection)
            }
            var matched: [(entity: EntityDescription, keys: [Int64])] = []
            for query in queries {
                var keys = try Self.matchingKeys(query, connection)
                if let requested { keys = keys.filter(requested.contains) }
                matched.append((query.entity, keys))
            }
            let (doomed, found) = try BatchDeletion.closureInOrder(of: matched, model: model, connection)
            try BatchDeletion.checkDenials(doomed, model: model, connection, storeIdentifier: identifier)
            try BatchDeletion.unlinkPartners(doomed, model: model, connection, into: &changes)
            try BatchDeletion.nullify(doomed, model: model, connection, into: &changes)
            for name in BatchDeletion.deletionOrder(Array(doomed.keys), model: model) {
                guard let doomedEntity = model.entity(named: name), let rows = found[name], !rows.isEmpty else { continue }
                let sorted = rows.sorted()
                try Self.deleteRows(sorted, of: doomedEntity, connection)
                changes.delete(sorted, of: doomedEntity)
                deleted[doomedEntity.name] = sorted
            }
            return try record(changes, author: author, contextName: contextName, connection)
        }
        return deleted
    }

    /// Deletes the rows a query matches (of those in `only`, when given) in one `DELETE`, for an
    /// entity no delete rule, inverse or link reaches (``BatchDeletion/isDirect(_:model:)``);
    /// returns their keys, ascending.
    private static func deleteDirectly(_ query: StoreQuery, only requested: Set<Int64>?,
                                       _ connection: SQLiteConnection) throws -> [Int64] {
        let entity = query.entity
        var conditions = query.whereSQL.map { ["(" + $0 + ")"] } ?? []
        var bindings = query.bindings
        if let requested {
            // The predicate's SQL numbers its parameters (?1...): the keys come after them.
            conditions.append("\(SQLName.quote(SchemaSQL.primaryKey)) IN (SELECT value FROM json_each(?\(bindings.count + 1)))")
            bindings.append(jsonArray(requested.sorted()))
        }
        if conditions.isEmpty && entity.inheritance == nil {
            // Every row: their keys first, then SQLite empties the table at once.
            let keys = try matchingKeys(query, connection)
            try deleteRows(keys, of: entity, connection)
            return keys
        }
        // Never without a WHERE here (a tree's entity has its `_entity` test): SQLite then
        // empties the table without calling the update hook.
        let sql = "DELETE FROM \(batchTarget(entity))" + batchCondition(conditions.isEmpty ? nil : conditions.joined(separator: " AND "), of: entity)
        let statement = try connection.prepare(sql)
        try statement.bind(bindings)
        let keys = try ChangedRowCollector.keys(.delete, in: entity.tableName, on: connection) { try statement.run() }
        guard keys.count == connection.changes else {
            throw PersistError(.misuse, "Batch delete of \(entity.name): SQLite deleted \(connection.changes) rows "
                               + "but reported \(keys.count); nothing was deleted", entity: entity.name)
        }
        return keys.sorted()
    }

    /// Deletes the rows with `keys` (ascending, all present) of `entity` from its table. When
    /// they are every row, a `DELETE` without `WHERE` walks the table once (or, when no foreign
    /// key involves it, SQLite empties it a page at a time) instead of parsing the keys and
    /// seeking each row: wiping the cache-reload benchmark's 10,100 rows costs 3,100 fewer
    /// instructions a row. (In a tree's table, the keys are every row only when no other
    /// entity has any.)
    private static func deleteRows(_ keys: [Int64], of entity: EntityDescription, _ connection: SQLiteConnection) throws {
        guard !keys.isEmpty else { return }
        let name = SchemaSQL.table(of: entity)
        if try connection.singleInt("SELECT count(*) FROM \(name)") == Int64(keys.count) {
            try connection.execute("DELETE FROM \(name)")
        } else {
            try connection.singleInt("DELETE FROM \(name) WHERE \(SQLName.quote(SchemaSQL.primaryKey)) IN (SELECT value FROM json_each(?))",
                                     [jsonArray(keys)])
        }
        guard connection.changes == keys.count else {
            throw PersistError(.misuse, "Batch delete of \(entity.name): SQLite deleted \(connection.changes) rows, not the \(keys.count) "
                               + "it was asked to; nothing was deleted", entity: entity.name)
        }
    }

    /// The keys of the rows a query matches, in key order, on a connection already held.
    private static func matchingKeys(_ query: StoreQuery, _ connection: SQLiteConnection) throws -> [Int64] {
        let sql = "SELECT \(SQLName.quote(SchemaSQL.primaryKey)) FROM \(SchemaSQL.source(of: query.entity))"
            + (query.whereSQL.map { " WHERE " + $0 } ?? "") + " ORDER BY \(SQLName.quote(SchemaSQL.primaryKey))"
        let statement = try connection.prepare(sql)
        try statement.bind(query.bindings)
        var keys: [Int64] = []
        while try statement.step() { keys.append(statement.int64(at: 0)) }
        return keys
    }

    /// Writes the batch's history record (the normal save's recording, in the same
    /// transaction) and returns its change-log entry.
    private func record(_ changes: BatchChanges, author: String?, contextName: String?,
                        _ connection: SQLiteConnection) throws -> StoreChange {
        try changes.record { try recordHistory($0, author: author, contextName: contextName, connection) }
    }
}
