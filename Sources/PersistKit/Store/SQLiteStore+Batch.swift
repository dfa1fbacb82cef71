/// Batch requests, in SQL, without objects: each is one write transaction, logged as a change
/// every context of the container merges (and its controllers diff).
extension SQLiteStore {
    /// Inserts rows (each a full slot storage); a row with an entry in `replacing` overwrites
    /// that stored row instead (an upsert). Returns each row's primary key, in order.
    ///
    /// - Throws: ``PersistError`` naming the row's index when SQLite refuses it (a uniqueness
    ///   index, another process having written in between); nothing is written then.
    func batchInsert(_ entity: EntityDescription, rows: [ContiguousArray<SQLValue>], replacing: [Int: Int64]) throws -> [Int64] {
        var keys: [Int64] = []
        keys.reserveCapacity(rows.count)
        _ = try save(origin: 0) { connection in
            var change = StoreChange(sequence: 0, origin: 0)
            let insert = try connection.cachedStatement(SchemaSQL.insert(for: entity))
            let allSlots = Array(entity.columns.indices)
            let update = try connection.cachedStatement(SchemaSQL.update(for: entity, slots: allSlots, checkVersion: false))
            var nextKey = try firstFreeKey(entity, connection)
            for (index, row) in rows.enumerated() {
                do {
                    if let existing = replacing[index] {
                        update.reset()
                        try update.bind(Array(row) + [.integer(existing)])
                        try update.run()
                        keys.append(existing)
                        change.updated[entity.name, default: []].append(existing)
                    } else {
                        insert.rewind()
                        insert.bind(nextKey, at: 1)
                        for (slot, value) in row.enumerated() { try insert.bind(value, at: Int32(slot + 2)) }
                        try insert.run()
                        keys.append(nextKey)
                        change.inserted[entity.name, default: []].append(nextKey)
                        nextKey += 1
                    }
                } catch var error as PersistError {
                    error.message = "Batch insert into \(entity.name), row at index \(index): " + error.message
                    error.entity = error.entity ?? entity.name
                    throw error
                }
            }
            try recordHighWaterMark(entity, nextKey - 1, connection)
            return change
        }
        return keys
    }

    /// Sets `values` in `slots` of every row the query matches; returns their keys.
    func batchUpdate(_ query: StoreQuery, slots: [Int], values: [SQLValue]) throws -> [Int64] {
        var keys: [Int64] = []
        _ = try save(origin: 0) { connection in
            var change = StoreChange(sequence: 0, origin: 0)
            let entity = query.entity
            // The predicate's SQL numbers its parameters (?1...): the new values come after them.
            let first = query.bindings.count + 1
            let sets = slots.enumerated().map { SQLName.quote(entity.columns[$0.element].name) + " = ?\(first + $0.offset)" }
                + ["\(SQLName.quote(SchemaSQL.version)) = \(SQLName.quote(SchemaSQL.version)) + 1"]
            let sql = "UPDATE \(SQLName.quote(entity.name)) SET " + sets.joined(separator: ", ")
                + (query.whereSQL.map { " WHERE " + $0 } ?? "") + " RETURNING \(SQLName.quote(SchemaSQL.primaryKey))"
            let statement = try connection.prepare(sql)
            try statement.bind(query.bindings + values)
            while try statement.step() { keys.append(statement.int64(at: 0)) }
            change.updated[entity.name] = keys
            return change
        }
        return keys
    }

    /// The keys of the rows a query matches, in key order.
    func matchingKeys(_ query: StoreQuery) throws -> [Int64] {
        let sql = "SELECT \(SQLName.quote(SchemaSQL.primaryKey)) FROM \(SQLName.quote(query.entity.name))"
            + (query.whereSQL.map { " WHERE " + $0 } ?? "") + " ORDER BY \(SQLName.quote(SchemaSQL.primaryKey))"
        return try withConnection { connection in
            let statement = try connection.prepare(sql)
            try statement.bind(query.bindings)
            var keys: [Int64] = []
            while try statement.step() { keys.append(statement.int64(at: 0)) }
            return keys
        }
    }

    /// Deletes rows with their delete rules, in SQL: cascades to any depth, nullifies the
    /// references to deleted rows, and refuses (nothing deleted) when a `.deny` relationship
    /// of a deleted row holds a row not deleted too.
    ///
    /// - Returns: The deleted keys per entity (the requested rows first).
    func batchDelete(_ entity: EntityDescription, keys: [Int64]) throws -> [String: [Int64]] {
        var deleted: [String: [Int64]] = [:]
        _ = try save(origin: 0) { connection in
            var change = StoreChange(sequence: 0, origin: 0)
            let doomed = try BatchDeletion.closure(of: entity, keys: keys, model: model, connection)
            try BatchDeletion.checkDenials(doomed, model: model, connection, storeIdentifier: identifier)
            change.updated = try BatchDeletion.nullify(doomed, model: model, connection)
            for (name, rows) in doomed.sorted(by: { $0.key < $1.key }) {
                guard let doomedEntity = model.entity(named: name), !rows.isEmpty else { continue }
                let sorted = rows.sorted()
                try connection.singleInt("DELETE FROM \(SQLName.quote(name)) WHERE \(SQLName.quote(SchemaSQL.primaryKey)) IN "
                                         + "(SELECT value FROM json_each(?))", [Self.jsonArray(sorted)])
                change.deleted[doomedEntity.name] = sorted
                deleted[doomedEntity.name] = sorted
            }
            return change
        }
        return deleted
    }
}
