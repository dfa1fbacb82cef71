extension ResolvedSort {
    /// `"due" ASC NULLS LAST`, with the collation when it is not BINARY; a sort through to-ones
    /// reads the attribute with a subquery on the related rows' primary keys (one indexed
    /// lookup per row of `table`, the fetch's own table).
    func sql(from table: String) -> String {
        var clause = hops.isEmpty ? SQLName.quote(name) : subquery(from: table)
        if let collation = TextFunctions.collationName(collation) { clause += " COLLATE \(collation)" }
        clause += ascending ? " ASC" : " DESC"
        clause += nilsFirst ? " NULLS FIRST" : " NULLS LAST"
        return clause
    }

    /// The value the sort orders by, as an SQL expression over `table`: the column, or the
    /// subquery through the to-ones.
    func valueSQL(from table: String) -> String {
        hops.isEmpty ? SQLName.quote(table) + "." + SQLName.quote(name) : subquery(from: table)
    }

    /// Whether the value is stored as REAL (SQLite may hand back an integer for it).
    func readsReal(in entity: EntityDescription) -> Bool {
        let owner = hops.last?.destination ?? entity
        return targetSlot < owner.attributes.count && owner.attributes[targetSlot].type.columnType == "REAL"
    }

    /// `(SELECT "_s2"."name" FROM "Project" AS "_s1" JOIN "Owner" AS "_s2" ON "_s2"."_pk" = "_s1"."owner"
    /// WHERE "_s1"."_pk" = "Task"."project")`: NULL when a to-one on the way is.
    private func subquery(from table: String) -> String {
        let primaryKey = SQLName.quote(SchemaSQL.primaryKey)
        let from = PredicateSemantics.toOnePathTables(hops, primaryKey: primaryKey) { "\"_s\($0)\"" }
        let attribute = hops.last.map { $0.destination.columns[targetSlot].name } ?? name
        let first = hops.first.map { SQLName.quote($0.relationship.name) } ?? primaryKey
        return "(SELECT \"_s\(hops.count)\".\(SQLName.quote(attribute)) FROM \(from) WHERE \"_s1\".\(primaryKey) = \(SQLName.quote(table)).\(first))"
    }
}
