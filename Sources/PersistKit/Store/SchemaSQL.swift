/// The SQL that creates an entity's table and indexes.
enum SchemaSQL {
    static let primaryKey = "_pk"
    static let version = "_version"

    static func createStatements(for entity: EntityDescription) -> [String] {
        // No AUTOINCREMENT (it doubles the cost of an insert): saves assign keys from a
        // high-water mark in the metadata table, so keys are never reused all the same.
        var columns = ["\(SQLName.quote(primaryKey)) INTEGER PRIMARY KEY",
                       "\(SQLName.quote(version)) INTEGER NOT NULL DEFAULT 1"]
        for column in entity.columns {
            let declared = column.type.declaredColumnType
            var definition = SQLName.quote(column.name) + (declared.isEmpty ? "" : " " + declared) + (column.isOptional ? "" : " NOT NULL")
            if case .foreignKey(let index) = column.role {
                // Deferred: a save inserts related rows in any order. SET NULL only matters for
                // `.noAction`: every other rule already changed the referencing rows.
                definition += " REFERENCES \(SQLName.quote(entity.relationships[index].destinationEntityName))"
                    + "(\(SQLName.quote(primaryKey))) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED"
            }
            columns.append(definition)
        }
        var statements = ["CREATE TABLE \(SQLName.quote(entity.name)) (" + columns.joined(separator: ", ") + ")"]
        for column in entity.columns {
            guard case .foreignKey = column.role else { continue }
            statements.append("CREATE INDEX \(SQLName.quote("_persistkit_fk_\(entity.name)_\(column.name)")) ON "
                              + "\(SQLName.quote(entity.name)) (\(SQLName.quote(column.name)))")
        }
        for relationship in entity.relationships {
            guard case .joinTable(let table, isOwner: true) = relationship.storage else { continue }
            statements += createStatements(for: table)
        }
        for (index, constraint) in entity.uniquenessConstraints.enumerated() {
            statements.append("CREATE UNIQUE INDEX \(SQLName.quote("_persistkit_unique_\(entity.name)_\(index)")) ON \(SQLName.quote(entity.name)) ("
                              + constraint.map(SQLName.quote).joined(separator: ", ") + ")")
        }
        return statements
    }

    /// A join table: one row per link, keyed by both ends; rows go when either end's row does.
    static func createStatements(for table: JoinTable) -> [String] {
        let name = SQLName.quote(table.name)
        let owner = SQLName.quote(JoinTable.ownerColumn), destination = SQLName.quote(JoinTable.destinationColumn)
        return ["CREATE TABLE \(name) (\(owner) INTEGER NOT NULL REFERENCES \(SQLName.quote(table.ownerEntity))(\(SQLName.quote(primaryKey)))"
                + " ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, \(destination) INTEGER NOT NULL REFERENCES "
                + "\(SQLName.quote(table.destinationEntity))(\(SQLName.quote(primaryKey))) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, "
                + "\(SQLName.quote(JoinTable.positionColumn)) INTEGER, PRIMARY KEY (\(owner), \(destination))) WITHOUT ROWID",
                "CREATE INDEX \(SQLName.quote(table.name + "_destination")) ON \(name) (\(destination), \(owner))"]
    }

    /// The column names of an entity's table, in order: `_pk`, `_version`, then each slot's.
    static func columnNames(for entity: EntityDescription) -> [String] {
        [primaryKey, version] + entity.columns.map(\.name)
    }

    /// `SELECT "_pk", "_version", "a", "b" FROM "T"`: the columns every object read uses.
    static func selectColumns(for entity: EntityDescription) -> String {
        "SELECT " + columnNames(for: entity).map(SQLName.quote).joined(separator: ", ") + " FROM " + SQLName.quote(entity.name)
    }

    /// `INSERT` with the primary key first, then every slot's column.
    static func insert(for entity: EntityDescription) -> String {
        "INSERT INTO \(SQLName.quote(entity.name)) (" + columnNames(for: entity).map(SQLName.quote).joined(separator: ", ")
            + ") VALUES (?, 1" + String(repeating: ", ?", count: entity.columns.count) + ")"
    }

    /// The metadata key holding the highest primary key ever given to an entity's objects.
    static func highWaterKey(for entity: EntityDescription) -> String {
        "lastPrimaryKey." + entity.name
    }

    static func update(for entity: EntityDescription, slots: [Int], checkVersion: Bool) -> String {
        let sets = slots.map { SQLName.quote(entity.columns[$0].name) + " = ?" }
            + ["\(SQLName.quote(version)) = \(SQLName.quote(version)) + 1"]
        return "UPDATE \(SQLName.quote(entity.name)) SET " + sets.joined(separator: ", ")
            + " WHERE \(SQLName.quote(primaryKey)) = ?" + (checkVersion ? " AND \(SQLName.quote(version)) = ?" : "")
    }

    static func delete(for entity: EntityDescription) -> String {
        "DELETE FROM \(SQLName.quote(entity.name)) WHERE \(SQLName.quote(primaryKey)) = ? AND \(SQLName.quote(version)) = ?"
    }
}
