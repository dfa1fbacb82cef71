/// Keys without objects: what a batched fetch and a batched results controller hold.
extension SQLiteStore {
    /// Hands `body` the primary key of every row a query matches, in its order, with the values
    /// its sorts read (an empty array unless `sortValues`), as the objects would hold them.
    ///
    /// One buffer is reused for every row's values: `body` copies what it keeps.
    func readKeys(_ query: StoreQuery, limit: Int, offset: Int, sortValues: Bool,
                  _ body: (Int64, ContiguousArray<SQLValue>) throws -> Void) throws {
        let sorts = sortValues ? query.sorts : []
        let sql = query.keysSQL(limit: limit, offset: offset, values: sorts)
        let reals = sorts.map { $0.readsReal(in: query.entity) }
        try withReader { connection in
            let statement = try connection.cachedStatement(sql)
            defer { statement.reset() }
            try statement.bind(query.bindings)
            var values = ContiguousArray<SQLValue>()
            values.reserveCapacity(sorts.count)
            while try statement.step() {
                values.removeAll(keepingCapacity: true)
                for index in sorts.indices {
                    let value = statement.value(at: Int32(index + 1))
                    if reals[index], case .integer(let integer) = value {
                        values.append(.real(Double(integer)))
                    } else {
                        values.append(value)
                    }
                }
                try body(statement.int64(at: 0), values)
            }
        }
    }
}

extension StoreQuery {
    /// ``keysSQL(limit:offset:)`` with the values `sorts` read after each key.
    func keysSQL(limit: Int, offset: Int, values sorts: [ResolvedSort]) -> String {
        guard !sorts.isEmpty else { return keysSQL(limit: limit, offset: offset) }
        let full = selectSQL(limit: limit, offset: offset)
        let from = " FROM " + SchemaSQL.source(of: entity)
        guard let range = full.range(of: from) else { return full }
        let columns = [SQLName.quote(entity.name) + "." + SQLName.quote(SchemaSQL.primaryKey)] + sorts.map { $0.valueSQL(from: entity.name) }
        return "SELECT " + columns.joined(separator: ", ") + full[range.lowerBound...]
    }
}
