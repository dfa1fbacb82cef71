/// The SQL that creates an entity's table and indexes.
enum SchemaSQL {
    static let primaryKey = "_pk"
    static let version = "_version"

    static func createStatements(for entity: EntityDescription) -> [String] {
        // No AUTOINCREMENT (it doubles the cost of an insert): saves assign keys from a
        // high-water mark in the metadata table, so keys are never reused all the same.
        var columns = ["\(SQLName.quote(primaryKey)) INTEGER PRIMARY KEY",
                       "\(SQLName.quote(version)) INTEGER NOT NULL DEFAULT 1"]
        for attribute in entity.attributes {
            let declared = attribute.type.declaredColumnType
            columns.append(SQLName.quote(attribute.name) + (declared.isEmpty ? "" : " " + declared) + (attribute.isOptional ? "" : " NOT NULL"))
        }
        var statements = ["CREATE TABLE \(SQLName.quote(entity.name)) (" + columns.joined(separator: ", ") + ")"]
        for (index, constraint) in entity.uniquenessConstraints.enumerated() {
            statements.append("CREATE UNIQUE INDEX \(SQLName.quote("_persistkit_unique_\(entity.name)_\(index)")) ON \(SQLName.quote(entity.name)) ("
                              + constraint.map(SQLName.quote).joined(separator: ", ") + ")")
        }
        return statements
    }

    /// `SELECT "_pk", "_version", "a", "b" FROM "T"`: the columns every object read uses.
    static func selectColumns(for entity: EntityDescription) -> String {
        "SELECT " + ([primaryKey, version] + entity.attributeNames).map(SQLName.quote).joined(separator: ", ")
            + " FROM " + SQLName.quote(entity.name)
    }

    /// `INSERT` with the primary key first, then every attribute.
    static func insert(for entity: EntityDescription) -> String {
        let names = [primaryKey, version] + entity.attributeNames
        return "INSERT INTO \(SQLName.quote(entity.name)) (" + names.map(SQLName.quote).joined(separator: ", ")
            + ") VALUES (?, 1" + String(repeating: ", ?", count: entity.attributes.count) + ")"
    }

    /// The metadata key holding the highest primary key ever given to an entity's objects.
    static func highWaterKey(for entity: EntityDescription) -> String {
        "lastPrimaryKey." + entity.name
    }

    static func update(for entity: EntityDescription, slots: [Int], checkVersion: Bool) -> String {
        let sets = slots.map { SQLName.quote(entity.attributes[$0].name) + " = ?" }
            + ["\(SQLName.quote(version)) = \(SQLName.quote(version)) + 1"]
        return "UPDATE \(SQLName.quote(entity.name)) SET " + sets.joined(separator: ", ")
            + " WHERE \(SQLName.quote(primaryKey)) = ?" + (checkVersion ? " AND \(SQLName.quote(version)) = ?" : "")
    }

    static func delete(for entity: EntityDescription) -> String {
        "DELETE FROM \(SQLName.quote(entity.name)) WHERE \(SQLName.quote(primaryKey)) = ? AND \(SQLName.quote(version)) = ?"
    }
}
