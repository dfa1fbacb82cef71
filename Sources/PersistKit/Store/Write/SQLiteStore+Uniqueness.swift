extension SQLiteStore {
    /// Calls `body` with the key and values of every stored row that may hold one of `tuples`
    /// in the attributes at `slots`: every row that does (as SQLite's `=` compares), and
    /// perhaps others, which the caller tells apart by its own ``UniquenessKey``s. `tuples`
    /// is a flat list: the first tuple's values in the order of `slots`, then the second's...
    ///
    /// Few tuples against a large table are looked up: a `VALUES` list joined to the table,
    /// one search of the constraint's unique index per tuple. When the table has few rows
    /// for the tuples (an import into a new store), reading its rows costs less than a search
    /// per tuple, and an empty table costs one query.
    func forEachRow(of entity: EntityDescription, holding tuples: [SQLValue], at slots: [Int],
                    _ body: (Int64, UniquenessKey) -> Void) throws {
        try withConnection { connection in try forEachRow(of: entity, holding: tuples, at: slots, connection, body) }
    }

    /// ``forEachRow(of:holding:at:_:)`` on a connection already held (inside a save).
    func forEachRow(of entity: EntityDescription, holding tuples: [SQLValue], at slots: [Int],
                    _ connection: SQLiteConnection, _ body: (Int64, UniquenessKey) -> Void) throws {
        let width = slots.count
        guard width > 0, tuples.count >= width else { return }
        let tupleCount = tuples.count / width
        // Keys are never reused, so the largest one bounds the row count from above.
        let largestKey = try connection.singleInt("SELECT max(\(SQLName.quote(SchemaSQL.primaryKey))) FROM \(SQLName.quote(entity.name))") ?? 0
        if largestKey == 0 { return }
        if largestKey <= Int64(tupleCount) * 3 {
            try readRows(Self.holdersSQL(entity, slots: slots, rows: 0), bindings: [], width: width, connection, body)
            return
        }
        let perQuery = max(1, Self.uniquenessBindLimit / width)
        var seen = Set<Int64>()   // the padding repeats a tuple, and so its row
        for start in stride(from: 0, to: tupleCount, by: perQuery) {
            let count = min(tupleCount, start + perQuery) - start
            var rows = 1
            while rows < count { rows *= 2 }
            rows = min(rows, perQuery)
            var bindings = Array(tuples[(start * width)..<((start + count) * width)])
            let last = bindings.suffix(width)
            for _ in count..<rows { bindings += last }
            try readRows(Self.holdersSQL(entity, slots: slots, rows: rows), bindings: bindings, width: width, connection) { key, values in
                if seen.insert(key).inserted { body(key, values) }
            }
        }
    }

    private func readRows(_ sql: String, bindings: [SQLValue], width: Int, _ connection: SQLiteConnection,
                          _ body: (Int64, UniquenessKey) -> Void) throws {
        let statement = try connection.cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(bindings)
        var values: [SQLValue] = []
        while try statement.step() {
            values.removeAll(keepingCapacity: true)
            for column in 1...width { values.append(statement.value(at: Int32(column))) }
            body(statement.int64(at: 0), UniquenessKey(values, from: 0, count: width))
        }
    }

    /// Values bound per lookup: well under SQLite's smallest default limit (999).
    private static let uniquenessBindLimit = 500

    /// With `rows` tuples: `SELECT t."_pk", t."a", t."b" FROM (VALUES (?, ?), ...) AS v JOIN "T"
    /// AS t ON t."a" = v.column1 AND ...`; with none, every row without a NULL among them.
    private static func holdersSQL(_ entity: EntityDescription, slots: [Int], rows: Int) -> String {
        let names = slots.map { "t." + SQLName.quote(entity.attributes[$0].name) }
        let select = "SELECT t." + SQLName.quote(SchemaSQL.primaryKey) + ", " + names.joined(separator: ", ")
        guard rows > 0 else {
            return select + " FROM " + SQLName.quote(entity.name) + " AS t WHERE "
                + names.map { $0 + " IS NOT NULL" }.joined(separator: " AND ")
        }
        let row = "(" + Array(repeating: "?", count: slots.count).joined(separator: ", ") + ")"
        let matches = names.enumerated().map { "\($0.element) = v.column\($0.offset + 1)" }
        return select + " FROM (VALUES " + Array(repeating: row, count: rows).joined(separator: ", ") + ") AS v JOIN "
            + SQLName.quote(entity.name) + " AS t ON " + matches.joined(separator: " AND ")
    }
}
