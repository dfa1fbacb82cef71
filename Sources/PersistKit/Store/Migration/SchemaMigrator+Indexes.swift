import Foundation

/// The indexes of a migrated schema: each table ends with exactly the indexes a new store of
/// the new model would have. Index names are global in a database, so every stale index goes
/// before any missing one is made; a unique index is made only after the rows it would hold
/// were found free of duplicates.
extension SchemaMigrator {
    /// An index PersistKit made, as SQLite lists it.
    struct ExistingIndex: Equatable {
        let name: String
        let columns: [String]
        let isUnique: Bool
        /// A partial index's condition, as its `CREATE INDEX` states it (nil for a full index).
        let condition: String?
    }

    /// The indexes a new store of the new model has on an entity's table.
    func expectedIndexes(of entity: EntityDescription) -> [IndexDefinition] {
        SchemaSQL.foreignKeyIndexes(for: entity) + SchemaSQL.uniqueIndexes(for: entity)
            + (entity.inheritance == nil ? [] : [SchemaSQL.entityIndex(for: entity)])
    }

    /// Drops the PersistKit indexes on `table` that are not among `expected` (by name, columns
    /// and uniqueness).
    func dropStaleIndexes(on table: String, expected: [IndexDefinition]) throws {
        for index in try existingIndexes(on: table) where !expected.contains(where: { index.matches($0) }) {
            try connection.execute("DROP INDEX \(SQLName.quote(index.name))")
        }
    }

    /// Every table of the new model gets exactly its indexes.
    func makeIndexes() throws {
        var expected: [(table: String, indexes: [IndexDefinition], entity: EntityDescription?)] =
            mapping.entityTables.map { ($0.entity.name, expectedIndexes(of: $0.entity), $0.entity) }
        expected += mapping.joinTables.map { ($0.table.name, [SchemaSQL.index(for: $0.table)], nil) }
        for table in expected {
            try dropStaleIndexes(on: table.table, expected: table.indexes)
        }
        for table in expected {
            let existing = try existingIndexes(on: table.table)
            for index in table.indexes where !existing.contains(where: { $0.matches(index) }) {
                if index.isUnique, let entity = table.entity {
                    try checkNoDuplicates(for: index, of: entity)
                }
                try connection.execute(index.createSQL)
            }
        }
    }

    /// The indexes PersistKit made on `table` (named `_persistkit_...`; SQLite's own
    /// automatic indexes and anything else are left alone).
    private func existingIndexes(on table: String) throws -> [ExistingIndex] {
        let list = try connection.prepare("SELECT l.name, l.\"unique\", l.partial, m.sql FROM pragma_index_list(?) AS l "
                                          + "JOIN sqlite_master AS m ON m.name = l.name WHERE l.origin = 'c'")
        try list.bind([.text(table)])
        var found: [(String, Bool, String?)] = []
        while try list.step() {
            let name = list.string(at: 0)
            // PersistKit writes a partial index's condition after its columns' closing parenthesis.
            let sql = list.string(at: 3)
            let condition = list.int64(at: 2) != 0 ? sql.range(of: ") WHERE ", options: .backwards).map { String(sql[$0.upperBound...]) } : nil
            if name.hasPrefix("_persistkit_") { found.append((name, list.int64(at: 1) != 0, condition)) }
        }
        return try found.map { name, isUnique, condition in
            let info = try connection.prepare("SELECT name FROM pragma_index_info(?) ORDER BY seqno")
            try info.bind([.text(name)])
            var columns: [String] = []
            while try info.step() { columns.append(info.string(at: 0)) }
            return ExistingIndex(name: name, columns: columns, isUnique: isUnique, condition: condition)
        }
    }

    /// Rows that would break a new uniqueness constraint fail the migration, naming the values
    /// and the objects (nil never collides, as in SQLite).
    private func checkNoDuplicates(for index: IndexDefinition, of entity: EntityDescription) throws {
        let columns = index.columns.map(SQLName.quote)
        let primaryKey = SQLName.quote(SchemaSQL.primaryKey)
        // In an inheritance tree each row names its own entity (the constraint's index may span several).
        let rowEntity = entity.inheritance == nil ? SQLName.literal(entity.name) : SQLName.quote(EntityInheritance.entityColumn)
        let statement = try connection.prepare("SELECT " + columns.joined(separator: ", ")
            + ", count(*), json_group_array(json_array(\(rowEntity), \(primaryKey))) FROM \(SQLName.quote(entity.name)) WHERE "
            + columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ") + (index.condition.map { " AND " + $0 } ?? "")
            + " GROUP BY " + columns.joined(separator: ", ") + " HAVING count(*) > 1 ORDER BY min(\(primaryKey)) LIMIT 5")
        let what = index.scope ?? entity.name
        var groups: [String] = []
        var objects: [ObjectID] = []
        while try statement.step() {
            let count = Int32(index.columns.count)
            let values = (0..<count).map { "\(index.columns[Int($0)]) \(statement.value(at: $0))" }.joined(separator: ", ")
            let rows = (try? JSONSerialization.jsonObject(with: Data(statement.string(at: count + 1).utf8)) as? [[Any]]) ?? []
            let found = rows.compactMap { row -> (String, Int64)? in
                guard row.count == 2, let name = row[0] as? String, let key = (row[1] as? NSNumber)?.int64Value else { return nil }
                return (name, key)
            }.sorted { $0.1 < $1.1 }
            groups.append("\(values) (\(statement.int64(at: count)) objects: " + found.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + ")")
            objects += found.map { objectID($0.0, $0.1) }
        }
        guard !groups.isEmpty else { return }
        throw PersistError(.constraintViolation,
            "Cannot make \(index.columns.joined(separator: ", ")) unique for \(what): stored objects share values: "
            + groups.joined(separator: "; ") + ". Remove the duplicates first (in a custom stage's willMigrate, say); nothing was changed",
            entity: what, attribute: index.columns.joined(separator: ", "), objectIDs: objects)
    }
}

private extension SchemaMigrator.ExistingIndex {
    func matches(_ index: IndexDefinition) -> Bool {
        // Column names compare without case, as SQLite does (documents may spell constraint keys so).
        name == index.name && isUnique == index.isUnique && condition == index.condition
            && columns.map { $0.lowercased() } == index.columns.map { $0.lowercased() }
    }
}
