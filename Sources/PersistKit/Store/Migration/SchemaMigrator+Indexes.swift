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
        let list = try connection.prepare("SELECT name, \"unique\" FROM pragma_index_list(?) WHERE origin = 'c'")
        try list.bind([.text(table)])
        var found: [(String, Bool)] = []
        while try list.step() {
            let name = list.string(at: 0)
            if name.hasPrefix("_persistkit_") { found.append((name, list.int64(at: 1) != 0)) }
        }
        return try found.map { name, isUnique in
            let info = try connection.prepare("SELECT name FROM pragma_index_info(?) ORDER BY seqno")
            try info.bind([.text(name)])
            var columns: [String] = []
            while try info.step() { columns.append(info.string(at: 0)) }
            return ExistingIndex(name: name, columns: columns, isUnique: isUnique)
        }
    }

    /// Rows that would break a new uniqueness constraint fail the migration, naming the values
    /// and the objects (nil never collides, as in SQLite).
    private func checkNoDuplicates(for index: IndexDefinition, of entity: EntityDescription) throws {
        let columns = index.columns.map(SQLName.quote)
        let primaryKey = SQLName.quote(SchemaSQL.primaryKey)
        let statement = try connection.prepare("SELECT " + columns.joined(separator: ", ")
            + ", count(*), json_group_array(\(primaryKey)) FROM \(SQLName.quote(entity.name)) WHERE "
            + columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ") + " GROUP BY " + columns.joined(separator: ", ")
            + " HAVING count(*) > 1 ORDER BY min(\(primaryKey)) LIMIT 5")
        var groups: [String] = []
        var objects: [ObjectID] = []
        while try statement.step() {
            let count = Int32(index.columns.count)
            let values = (0..<count).map { "\(index.columns[Int($0)]) \(statement.value(at: $0))" }.joined(separator: ", ")
            let keys = statement.string(at: count + 1).dropFirst().dropLast().split(separator: ",").compactMap { Int64($0) }
            groups.append("\(values) (\(statement.int64(at: count)) objects: " + keys.map { "\(entity.name) \($0)" }.joined(separator: ", ") + ")")
            objects += keys.map { objectID(entity.name, $0) }
        }
        guard !groups.isEmpty else { return }
        throw PersistError(.constraintViolation,
            "Cannot make \(index.columns.joined(separator: ", ")) unique for \(entity.name): stored objects share values: "
            + groups.joined(separator: "; ") + ". Remove the duplicates first (in a custom stage's willMigrate, say); nothing was changed",
            entity: entity.name, attribute: index.columns.joined(separator: ", "), objectIDs: objects)
    }
}

private extension SchemaMigrator.ExistingIndex {
    func matches(_ index: IndexDefinition) -> Bool {
        // Column names compare without case, as SQLite does (documents may spell constraint keys so).
        name == index.name && isUnique == index.isUnique && columns.map { $0.lowercased() } == index.columns.map { $0.lowercased() }
    }
}
