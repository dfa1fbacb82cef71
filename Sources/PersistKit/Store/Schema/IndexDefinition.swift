/// An index PersistKit makes on one of its tables: a foreign key's, a uniqueness
/// constraint's, or a join table's.
struct IndexDefinition: Hashable {
    let name: String
    let table: String
    /// The indexed columns, in order.
    let columns: [String]
    let isUnique: Bool
    /// The rows a partial index holds (a uniqueness constraint of a sub-entity: its rows only),
    /// nil for all of them.
    var condition: String? = nil
    /// For a partial unique index, the sub-entity whose constraint it is (errors name it).
    var scope: String? = nil

    /// `CREATE [UNIQUE] INDEX "name" ON "table" ("a", "b") [WHERE condition]`.
    var createSQL: String {
        "CREATE \(isUnique ? "UNIQUE " : "")INDEX \(SQLName.quote(name)) ON \(SQLName.quote(table)) ("
            + columns.map(SQLName.quote).joined(separator: ", ") + ")" + (condition.map { " WHERE " + $0 } ?? "")
    }
}
