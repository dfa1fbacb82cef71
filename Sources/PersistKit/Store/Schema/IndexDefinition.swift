/// An index PersistKit makes on one of its tables: a foreign key's, a uniqueness
/// constraint's, or a join table's.
struct IndexDefinition: Hashable {
    let name: String
    let table: String
    /// The indexed columns, in order.
    let columns: [String]
    let isUnique: Bool

    /// `CREATE [UNIQUE] INDEX "name" ON "table" ("a", "b")`.
    var createSQL: String {
        "CREATE \(isUnique ? "UNIQUE " : "")INDEX \(SQLName.quote(name)) ON \(SQLName.quote(table)) ("
            + columns.map(SQLName.quote).joined(separator: ", ") + ")"
    }
}
