/// A fetch as the store runs it: an entity's rows, filtered, ordered and windowed in SQL.
///
/// The context builds one from a fetch request; the store compiles the predicate once, here,
/// so every SQL fragment stays in `Store/`.
struct StoreQuery {
    let entity: EntityDescription
    /// The compiled `WHERE` expression, if the request has a predicate.
    let whereSQL: String?
    let bindings: [SQLValue]
    let sorts: [ResolvedSort]

    init(entity: EntityDescription, predicate: PredicateNode?, sorts: [ResolvedSort]) throws {
        self.entity = entity
        self.sorts = sorts
        if let predicate {
            let compiled = try PredicateSQLCompiler.compile(predicate, entity: entity)
            whereSQL = compiled.sql
            bindings = compiled.bindings
        } else {
            whereSQL = nil
            bindings = []
        }
    }

    /// `SELECT` of the row columns, filtered, ordered (ties by primary key) and windowed.
    func selectSQL(limit: Int, offset: Int) -> String {
        var sql = SchemaSQL.selectColumns(for: entity)
        if let whereSQL { sql += " WHERE " + whereSQL }
        sql += " ORDER BY " + (sorts.map { $0.sql(from: entity.name) } + [SQLName.quote(SchemaSQL.primaryKey)]).joined(separator: ", ")
        if limit > 0 || offset > 0 { sql += " LIMIT \(limit > 0 ? limit : -1) OFFSET \(offset)" }
        return sql
    }

    /// The same `SELECT` as ``selectSQL(limit:offset:)``, of the primary keys only.
    func keysSQL(limit: Int, offset: Int) -> String {
        let full = selectSQL(limit: limit, offset: offset)
        let from = " FROM " + SchemaSQL.source(of: entity)
        guard let range = full.range(of: from) else { return full }
        return "SELECT " + SQLName.quote(entity.name) + "." + SQLName.quote(SchemaSQL.primaryKey) + full[range.lowerBound...]
    }

    /// `SELECT count(*)` of the matching rows, less those whose keys are in a JSON array bound last.
    func countSQL(excludingKeys: Bool) -> String {
        var sql = "SELECT count(*) FROM " + SchemaSQL.source(of: entity)
        var conditions: [String] = []
        if let whereSQL { conditions.append(whereSQL) }
        if excludingKeys {
            // Excluded keys go in a JSON array: one binding however many there are.
            conditions.append("\(SQLName.quote(SchemaSQL.primaryKey)) NOT IN (SELECT value FROM json_each(?))")
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        return sql
    }
}
