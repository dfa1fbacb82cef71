extension SQLiteStore {
    /// A stored row found holding values a save wants to give another object.
    struct UniquenessHolder {
        /// The row's primary key.
        let key: Int64
        /// The row's values of the looked-up attributes, in their order.
        let values: [SQLValue]
    }

    /// The stored rows whose values of the attributes at `slots` equal one of `tuples` (each as
    /// many values as `slots`, in that order), as SQLite's `=` compares them: the rows a save
    /// giving those values would collide with.
    ///
    /// Each lookup joins a `VALUES` list to the table, so it searches the constraint's unique
    /// index once per tuple. Lists are padded to a power of two (repeating the last tuple), so
    /// few distinct statements are cached.
    func rowsHolding(_ entity: EntityDescription, slots: [Int], tuples: [[SQLValue]]) throws -> [UniquenessHolder] {
        guard !slots.isEmpty, !tuples.isEmpty else { return [] }
        let perQuery = max(1, Self.uniquenessBindLimit / slots.count)
        var holders: [UniquenessHolder] = []
        var seen = Set<Int64>()
        for start in stride(from: 0, to: tuples.count, by: perQuery) {
            var chunk = Array(tuples[start..<min(tuples.count, start + perQuery)])
            var size = 1
            while size < chunk.count { size *= 2 }
            if let last = chunk.last { chunk += Array(repeating: last, count: min(size, perQuery) - chunk.count) }
            let sql = Self.holdersSQL(entity, slots: slots, rows: chunk.count)
            try withConnection { connection in
                let statement = try connection.cachedStatement(sql)
                defer { statement.reset() }
                try statement.bind(chunk.flatMap { $0 })
                while try statement.step() {
                    let key = statement.int64(at: 0)
                    guard seen.insert(key).inserted else { continue }
                    holders.append(UniquenessHolder(key: key, values: slots.indices.map { statement.value(at: Int32($0 + 1)) }))
                }
            }
        }
        return holders
    }

    /// Values bound per lookup: well under SQLite's smallest default limit (999).
    private static let uniquenessBindLimit = 500

    /// `SELECT t."_pk", t."a", t."b" FROM (VALUES (?, ?), ...) AS v JOIN "T" AS t ON t."a" = v.column1 AND ...`.
    private static func holdersSQL(_ entity: EntityDescription, slots: [Int], rows: Int) -> String {
        let names = slots.map { "t." + SQLName.quote(entity.attributes[$0].name) }
        let row = "(" + Array(repeating: "?", count: slots.count).joined(separator: ", ") + ")"
        let matches = names.enumerated().map { "\($0.element) = v.column\($0.offset + 1)" }
        return "SELECT t." + SQLName.quote(SchemaSQL.primaryKey) + ", " + names.joined(separator: ", ")
            + " FROM (VALUES " + Array(repeating: row, count: rows).joined(separator: ", ") + ") AS v JOIN "
            + SQLName.quote(entity.name) + " AS t ON " + matches.joined(separator: " AND ")
    }
}
