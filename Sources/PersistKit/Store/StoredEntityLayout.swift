/// How an entity's keys are stored, for SQL that reads a store's rows directly.
package struct StoredEntityLayout: Sendable {
    /// The table (unquoted) and its primary-key column.
    package let table: String
    package static let primaryKeyColumn = SchemaSQL.primaryKey
    /// Each to-one relationship's foreign-key column, and the column of the object's place in
    /// the inverse's ordered list when that list is ordered.
    package let toOnes: [(relationship: String, column: String, positionColumn: String?)]
    /// Each join table this entity owns: its relationship, table name and whether it keeps order.
    package let joinTables: [(relationship: String, table: String, isOrdered: Bool)]
    /// The join-table columns: owner key, destination key, position.
    package static let joinColumns = (owner: JoinTable.ownerColumn, destination: JoinTable.destinationColumn,
                                      position: JoinTable.positionColumn)

    /// The layout of `entity`'s table.
    package init(_ entity: EntityDescription) {
        table = entity.name
        var toOnes: [(String, String, String?)] = []
        var joins: [(String, String, Bool)] = []
        for relationship in entity.relationships {
            switch relationship.storage {
            case .foreignKey(_, let positionSlot):
                toOnes.append((relationship.name, relationship.name,
                               positionSlot.map { _ in StoredColumn.positionColumnName(for: relationship.name) }))
            case .joinTable(let table, isOwner: true):
                joins.append((relationship.name, table.name, table.isOrdered))
            default:
                break
            }
        }
        self.toOnes = toOnes
        joinTables = joins
    }
}
