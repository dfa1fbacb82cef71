extension SQLiteStore {
    /// Calls `body` with the key and values of every stored row that may hold one of `tuples`
    /// in the attributes of the `constraint`th uniqueness constraint of `entity`: every row that
    /// does (as SQLite's `=` compares), and perhaps others, which the caller tells apart by its
    /// own ``UniquenessKey``s. `tuples` is a flat list: the first tuple's values in the order of
    /// the constraint's slots, then the second's... In an inheritance tree the rows are those
    /// the constraint spans (every entity's of the tree for a constraint of its root), and
    /// `body` gets each row's entity too (nil for an entity in no tree).
    ///
    /// Few tuples against a large table are looked up: a `VALUES` list joined to the table,
    /// one search of the constraint's unique index per tuple. When the table has few rows
    /// for the tuples (an import into a new store), reading its rows costs less than a search
    /// per tuple, and an empty table costs one query.
    func forEachRow(of entity: EntityDescription, constraint: Int, holding tuples: [SQLValue],
                    _ body: (Int64, UniquenessKey, String?) -> Void) throws {
        try withConnection { connection in try forEachRow(of: entity, constraint: constraint, holding: tuples, connection, body) }
    }

    /// ``forEachRow(of:constraint:holding:_:)`` on a connection already held (inside a save).
    func forEachRow(of entity: EntityDescription, constraint: Int, holding tuples: [SQLValue],
                    _ connection: SQLiteConnection, _ body: (Int64, UniquenessKey, String?) -> Void) throws {
        let slots = entity.uniquenessSlots[constraint]
        let width = slots.count
        guard width > 0, tuples.count >= width else { return }
        let tupleCount = tuples.count / width
        let rows = HolderRows(entity: entity, slots: slots,
                              condition: SchemaSQL.uniquenessCondition(of: entity, constraint: constraint, in: model))
        // Keys are never reused, so the largest one bounds the row count from above.
        let largestKey = try connection.singleInt("SELECT max(\(SQLName.quote(SchemaSQL.primaryKey))) FROM \(SchemaSQL.table(of: entity))") ?? 0
        if largestKey == 0 { return }
        if largestKey <= Int64(tupleCount) * 3 {
            try readRows(rows.sql(tuples: 0), bindings: [], rows, connection, body)
            return
        }
        let perQuery = max(1, Self.uniquenessBindLimit / width)
        var seen = Set<Int64>()   // the padding repeats a tuple, and so its row
        for start in stride(from: 0, to: tupleCount, by: perQuery) {
            let count = min(tupleCount, start + perQuery) - start
            var padded = 1
            while padded < count { padded *= 2 }
            padded = min(padded, perQuery)
            var bindings = Array(tuples[(start * width)..<((start + count) * width)])
            let last = bindings.suffix(width)
            for _ in count..<padded { bindings += last }
            try readRows(rows.sql(tuples: padded), bindings: bindings, rows, connection) { key, values, entityName in
                if seen.insert(key).inserted { body(key, values, entityName) }
            }
        }
    }

    private func readRows(_ sql: String, bindings: [SQLValue], _ rows: HolderRows, _ connection: SQLiteConnection,
                          _ body: (Int64, UniquenessKey, String?) -> Void) throws {
        let statement = try connection.cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(bindings)
        let width = rows.slots.count, inTree = rows.entity.inheritance != nil
        var values: [SQLValue] = []
        while try statement.step() {
            values.removeAll(keepingCapacity: true)
            for column in 1...width { values.append(statement.value(at: Int32(column))) }
            body(statement.int64(at: 0), UniquenessKey(values, from: 0, count: width), inTree ? statement.string(at: Int32(width + 1)) : nil)
        }
    }

    /// Values bound per lookup: well under SQLite's smallest default limit (999).
    private static let uniquenessBindLimit = 500

    /// The rows a constraint's lookup reads: `entity`'s table (its tree's), those `condition`
    /// keeps (a sub-entity's constraint: its rows only).
    private struct HolderRows {
        let entity: EntityDescription
        let slots: [Int]
        let condition: String?

        /// With `tuples` tuples: `SELECT t."_pk", t."a", t."b" FROM (VALUES (?, ?), ...) AS v JOIN
        /// "T" AS t ON t."a" = v.column1 AND ...`; with none, every row without a NULL among
        /// them. In a tree, each row's `_entity` comes last, and the condition is added as the
        /// partial index states it, so that SQLite searches that index.
        func sql(tuples: Int) -> String {
            let names = slots.map { "t." + SQLName.quote(entity.attributes[$0].name) }
            var select = "SELECT t." + SQLName.quote(SchemaSQL.primaryKey) + ", " + names.joined(separator: ", ")
            if entity.inheritance != nil { select += ", t." + SQLName.quote(EntityInheritance.entityColumn) }
            let table = SchemaSQL.table(of: entity)
            guard tuples > 0 else {
                return select + " FROM " + table + " AS t WHERE " + names.map { $0 + " IS NOT NULL" }.joined(separator: " AND ")
                    + (condition.map { " AND " + $0 } ?? "")
            }
            let row = "(" + Array(repeating: "?", count: slots.count).joined(separator: ", ") + ")"
            let matches = names.enumerated().map { "\($0.element) = v.column\($0.offset + 1)" }
            return select + " FROM (VALUES " + Array(repeating: row, count: tuples).joined(separator: ", ") + ") AS v JOIN "
                + table + " AS t ON " + matches.joined(separator: " AND ") + (condition.map { " WHERE " + $0 } ?? "")
        }
    }
}
