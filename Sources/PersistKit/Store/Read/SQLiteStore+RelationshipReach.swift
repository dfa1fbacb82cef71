extension SQLiteStore {
    /// The non-nil values of a foreign-key column in the saved rows with the given keys (which
    /// objects those rows point at): one query, keys bound as a JSON array. The rows are those
    /// of `entity` and of the entities below it (a relationship to a parent holds theirs too).
    func foreignKeys(in entity: EntityDescription, slot: Int, keys: [Int64]) throws -> [Int64] {
        guard !keys.isEmpty, slot < entity.columns.count else { return [] }
        let column = SQLName.quote(entity.columns[slot].name)
        let sql = "SELECT \(column) FROM \(entity.rowsWithSubentitiesSQL) WHERE \(SQLName.quote(SchemaSQL.primaryKey)) "
            + "IN (SELECT value FROM json_each(?)) AND \(column) IS NOT NULL"
        return try withReader { connection in
            let statement = try connection.cachedStatement(sql)
            defer { statement.reset() }
            try statement.bind([Self.jsonArray(keys)])
            var result: [Int64] = []
            while try statement.step() { result.append(statement.int64(at: 0)) }
            return result
        }
    }
}
