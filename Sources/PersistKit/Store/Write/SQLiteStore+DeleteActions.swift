/// The delete actions SQLite runs for a store's foreign keys, run by hand where SQLite does not.
///
/// A migration runs with foreign-key enforcement off (SQLite's procedure for changing tables),
/// so the `ON DELETE` clauses do nothing while it runs: the saves of its custom stages' contexts
/// apply them here instead, exactly as the schema declares them.
extension SQLiteStore {
    /// For each row a save deleted: to-ones that pointed at it become NULL (`ON DELETE SET
    /// NULL`), and join-table links to or from it go (`ON DELETE CASCADE`).
    func applyDeleteActions(_ change: StoreChange, _ connection: SQLiteConnection) throws {
        for (entityName, keys) in change.deleted where !keys.isEmpty {
            let list = Self.jsonArray(keys)
            let condition = "IN (SELECT value FROM json_each(?))"
            for entity in model.entities {
                for column in entity.columns {
                    guard case .foreignKey(let index) = column.role,
                          model.entity(named: entityName)?.isKind(of: entity.relationships[index].destinationEntityName) == true
                    else { continue }
                    let name = SQLName.quote(column.name)
                    try connection.singleInt("UPDATE \(SchemaSQL.table(of: entity)) SET \(name) = NULL WHERE \(name) \(condition)", [list])
                }
                for relationship in entity.relationships {
                    guard case .joinTable(let table, isOwner: true) = relationship.storage else { continue }
                    let ends = [(table.ownerEntity, JoinTable.ownerColumn), (table.destinationEntity, JoinTable.destinationColumn)]
                    for (end, column) in ends where model.entity(named: entityName)?.isKind(of: end) == true {
                        try connection.singleInt("DELETE FROM \(SQLName.quote(table.name)) WHERE \(SQLName.quote(column)) \(condition)", [list])
                    }
                }
            }
        }
    }
}
