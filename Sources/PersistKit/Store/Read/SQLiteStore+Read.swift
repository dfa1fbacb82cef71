/// What a read hands the context for each row: the primary key and version, and a function
/// that decodes the row's attribute values into slot storage. An object the context already
/// holds, unchanged, needs no decoding: the context calls `decode` only when it needs the values.
typealias StoredRowHandler = (_ key: Int64, _ version: Int64,
                              _ decode: () throws -> ContiguousArray<SQLValue>) throws -> Void

extension SQLiteStore {
    /// Runs a query's `SELECT` and hands every row to `body`, in the query's order.
    func read(_ query: StoreQuery, limit: Int, offset: Int, _ body: StoredRowHandler) throws {
        let sql = query.selectSQL(limit: limit, offset: offset)
        try withReader { connection in
            let statement = try connection.cachedStatement(sql)
            defer { statement.reset() }
            try statement.bind(query.bindings)
            try Self.readRows(statement, entity: query.entity, body)
        }
    }

    /// Reads the rows with these primary keys (those that exist), in key order per chunk of
    /// keys SQLite can bind at once; all chunks from one committed snapshot.
    func read(_ entity: EntityDescription, keys: [Int64], _ body: StoredRowHandler) throws {
        guard !keys.isEmpty else { return }
        try withReader { connection in
            if keys.count <= Self.keysPerRead {
                try Self.readRows(entity, keys: keys[...], connection, body)
                return
            }
            try connection.inReadTransaction {
                for start in stride(from: 0, to: keys.count, by: Self.keysPerRead) {
                    try Self.readRows(entity, keys: keys[start..<min(keys.count, start + Self.keysPerRead)], connection, body)
                }
            }
        }
    }

    /// The primary keys of the rows a query matches, in its order.
    func keys(_ query: StoreQuery, limit: Int, offset: Int) throws -> [Int64] {
        let sql = query.keysSQL(limit: limit, offset: offset)
        return try withReader { connection in
            let statement = try connection.cachedStatement(sql)
            defer { statement.reset() }
            try statement.bind(query.bindings)
            var keys: [Int64] = []
            while try statement.step() { keys.append(statement.int64(at: 0)) }
            return keys
        }
    }

    private static let keysPerRead = 500

    private static func readRows(_ entity: EntityDescription, keys chunk: ArraySlice<Int64>, _ connection: SQLiteConnection,
                                 _ body: StoredRowHandler) throws {
        let sql = SchemaSQL.selectColumns(for: entity) + " WHERE \(SQLName.quote(SchemaSQL.primaryKey)) IN ("
            + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ") ORDER BY "
            + SQLName.quote(SchemaSQL.primaryKey)
        let statement = try connection.cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(chunk.map { .integer($0) })
        try readRows(statement, entity: entity, body)
    }

    /// How many rows match the query, not counting the rows whose keys are in `excludedKeys`.
    func count(_ query: StoreQuery, excludingKeys excludedKeys: [Int64]) throws -> Int {
        let sql = query.countSQL(excludingKeys: !excludedKeys.isEmpty)
        var bindings = query.bindings
        if !excludedKeys.isEmpty {
            bindings.append(.text("[" + excludedKeys.map(String.init).joined(separator: ",") + "]"))
        }
        return try withReader { connection in
            Int(try connection.singleInt(sql, bindings) ?? 0)
        }
    }

    private static func readRows(_ statement: SQLiteStatement, entity: EntityDescription,
                                 _ body: StoredRowHandler) throws {
        let reader = RowReader(entity: entity)
        while try statement.step() {
            let key = statement.int64(at: 0)
            try body(key, statement.int64(at: 1)) { try reader.readStorage(statement, key: key) }
        }
    }
}

extension SQLiteStore {
    /// The entity of the row with primary key `key` in an inheritance tree's table (nil when
    /// there is no such row, or the entity is in no tree).
    func entityName(ofKey key: Int64, in entity: EntityDescription) throws -> String? {
        guard entity.inheritance != nil else { return nil }
        return try withReader { connection in
            try connection.singleText("SELECT \(SQLName.quote(EntityInheritance.entityColumn)) FROM \(SchemaSQL.table(of: entity)) "
                                      + "WHERE \(SQLName.quote(SchemaSQL.primaryKey)) = ?", [.integer(key)])
        }
    }

    /// How many rows an entity's table has.
    func rowCount(of entity: EntityDescription) throws -> Int {
        try withReader { Int(try $0.singleInt("SELECT count(*) FROM " + SchemaSQL.source(of: entity)) ?? 0) }
    }

    /// Reads every row of an entity's table in primary-key order, until `body` returns false.
    func scan(_ entity: EntityDescription,
              _ body: (_ key: Int64, _ version: Int64, _ decode: () throws -> ContiguousArray<SQLValue>) throws -> Bool) throws {
        try withReader { connection in
            let statement = try connection.cachedStatement(SchemaSQL.selectColumns(for: entity) + " ORDER BY "
                + SQLName.quote(SchemaSQL.primaryKey))
            defer { statement.reset() }
            let reader = RowReader(entity: entity)
            while try statement.step() {
                let key = statement.int64(at: 0)
                guard try body(key, statement.int64(at: 1), { try reader.readStorage(statement, key: key) }) else { return }
            }
        }
    }
}
