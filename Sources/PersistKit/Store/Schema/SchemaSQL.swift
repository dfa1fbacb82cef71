/// The SQL that creates an entity's table and indexes.
enum SchemaSQL {
    static let primaryKey = "_pk"
    static let version = "_version"
    /// The version a new row starts at. Not 1: SQLite stores the integers 0 and 1 in no bytes
    /// of the record, 2 to 127 in one, so a row inserted at version 1 grows by a byte at its
    /// first update and SQLite must rewrite its cell instead of overwriting it in place (a
    /// batch update of 100,000 rows cost 12% more). Any start works: versions only need to
    /// change when the row does.
    static let initialRowVersion: Int64 = 2

    /// Everything a new store makes for an entity: its table, the indexes of its foreign
    /// keys, the join tables it owns and its unique indexes.
    static func createStatements(for entity: EntityDescription) -> [String] {
        if let inheritance = entity.inheritance {
            // One table per inheritance tree, made with its root (its foreign keys' and unique
            // indexes too); each join table with the entity that declares its relationship.
            var statements = inheritance.tableName == entity.name
                ? [createTable(for: entity), entityIndex(for: entity).createSQL] + foreignKeyIndexes(for: entity).map(\.createSQL)
                    + uniqueIndexes(for: entity).map(\.createSQL) : []
            for table in entity.ownedJoinTables { statements += createStatements(for: table) }
            return statements
        }
        var statements = [createTable(for: entity)]
        statements += foreignKeyIndexes(for: entity).map(\.createSQL)
        for table in entity.ownedJoinTables { statements += createStatements(for: table) }
        statements += uniqueIndexes(for: entity).map(\.createSQL)
        return statements
    }

    /// `CREATE TABLE` for an entity's table, under `name` (the entity's own by default: a
    /// migration builds a table under a temporary name, then renames it).
    static func createTable(for entity: EntityDescription, named name: String? = nil) -> String {
        // No AUTOINCREMENT (it doubles the cost of an insert): saves assign keys from a
        // high-water mark in the metadata table, so keys are never reused all the same.
        var columns = ["\(SQLName.quote(primaryKey)) INTEGER PRIMARY KEY",
                       "\(SQLName.quote(version)) INTEGER NOT NULL DEFAULT 1"]
            + tableColumns(of: entity).map { columnDefinition($0, of: entity) }
        if entity.inheritance != nil { columns.append(SQLName.quote(EntityInheritance.entityColumn) + " TEXT NOT NULL") }
        return "CREATE TABLE \(SQLName.quote(name ?? entity.name)) (" + columns.joined(separator: ", ") + ")"
    }

    /// A column's definition as `CREATE TABLE` and `ALTER TABLE ADD COLUMN` write it.
    static func columnDefinition(_ column: StoredColumn, of entity: EntityDescription) -> String {
        let declared = column.type.declaredColumnType
        var definition = SQLName.quote(column.name) + (declared.isEmpty ? "" : " " + declared) + (column.isOptional ? "" : " NOT NULL")
        if case .foreignKey(let index) = column.role {
            // Deferred: a save inserts related rows in any order. SET NULL only matters for
            // `.noAction`: every other rule already changed the referencing rows.
            let referenced = column.referencedTableName ?? entity.relationships[index].destinationTableName
            definition += " REFERENCES \(SQLName.quote(referenced))"
                + "(\(SQLName.quote(primaryKey))) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED"
        }
        return definition
    }

    /// The columns of an entity's table after `_pk` and `_version`: its own, or (the root of an
    /// inheritance tree) every entity's of the tree, without `_entity`.
    static func tableColumns(of entity: EntityDescription) -> [StoredColumn] {
        entity.inheritance?.tableColumns ?? entity.columns
    }

    /// The index on an inheritance tree's `_entity` column: a fetch of a sub-entity reads its
    /// rows only.
    static func entityIndex(for entity: EntityDescription) -> IndexDefinition {
        IndexDefinition(name: "_persistkit_entity_\(entity.tableName)", table: entity.tableName,
                        columns: [EntityInheritance.entityColumn], isUnique: false)
    }

    /// What a read names as an entity's rows: its table, or for an entity in an inheritance tree
    /// the tree table's rows of exactly that entity, under the entity's name (SQLite flattens
    /// the subquery: the read uses the table's indexes as a plain one would).
    static func source(of entity: EntityDescription) -> String {
        guard entity.inheritance != nil else { return SQLName.quote(entity.name) }
        return "(SELECT * FROM \(SQLName.quote(entity.tableName)) WHERE \(SQLName.quote(EntityInheritance.entityColumn)) = "
            + "\(SQLName.literal(entity.name))) AS \(SQLName.quote(entity.name))"
    }

    /// The table writes go to: the entity's own, or its inheritance tree's.
    static func table(of entity: EntityDescription) -> String {
        SQLName.quote(entity.tableName)
    }

    /// One index on each to-one's foreign-key column (an inheritance tree's, with its root).
    static func foreignKeyIndexes(for entity: EntityDescription) -> [IndexDefinition] {
        if let inheritance = entity.inheritance, inheritance.tableName != entity.name { return [] }
        return tableColumns(of: entity).compactMap { column in
            guard case .foreignKey = column.role else { return nil }
            return IndexDefinition(name: "_persistkit_fk_\(entity.name)_\(column.name)", table: entity.name,
                                   columns: [column.name], isUnique: false)
        }
    }

    /// One unique index per uniqueness constraint. An inheritance tree's are all made with its
    /// root, on its table: a constraint of the root's spans every row (a Dog and a Cat cannot
    /// share its values), a sub-entity's only its own and its sub-entities' rows (a partial
    /// index, whose condition is ``uniquenessCondition(_:)``).
    static func uniqueIndexes(for entity: EntityDescription) -> [IndexDefinition] {
        guard let inheritance = entity.inheritance else {
            return entity.uniquenessConstraints.enumerated().map { index, constraint in
                IndexDefinition(name: "_persistkit_unique_\(entity.name)_\(index)", table: entity.name,
                                columns: constraint, isUnique: true)
            }
        }
        guard inheritance.tableName == entity.name else { return [] }
        return inheritance.treeConstraints.map { constraint in
            IndexDefinition(name: "_persistkit_unique_\(constraint.scope)_\(constraint.index)", table: entity.name,
                            columns: constraint.keys, isUnique: true,
                            condition: constraint.entityNames.map(uniquenessCondition),
                            scope: constraint.entityNames == nil ? nil : constraint.scope)
        }
    }

    /// The rows of a tree's table a sub-entity's uniqueness constraint spans: `"_entity" IN
    /// ('Dog', 'Puppy')`. A lookup of the constraint's values repeats it word for word, so that
    /// SQLite sees it implies the partial index's and searches that index.
    static func uniquenessCondition(_ entityNames: [String]) -> String {
        SQLName.quote(EntityInheritance.entityColumn) + " IN (" + entityNames.map(SQLName.literal).joined(separator: ", ") + ")"
    }

    /// The rows the `constraint`th uniqueness constraint of `entity` spans, as a condition on
    /// ``table(of:)``'s rows: nil for all of them (an entity in no tree, or a constraint of a
    /// tree's root).
    static func uniquenessCondition(of entity: EntityDescription, constraint: Int, in model: ManagedObjectModel) -> String? {
        guard entity.inheritance != nil else { return nil }
        let scope = entity.uniquenessScope(constraint)
        guard scope != entity.tableName, let names = model.entity(named: scope)?.inheritance?.concreteEntityNames else { return nil }
        return uniquenessCondition(names)
    }

    /// A join table: one row per link, keyed by both ends; rows go when either end's row does.
    static func createStatements(for table: JoinTable) -> [String] {
        [createTable(for: table), index(for: table).createSQL]
    }

    /// `CREATE TABLE` for a join table, under `name` (the table's own by default).
    static func createTable(for table: JoinTable, named name: String? = nil) -> String {
        let owner = SQLName.quote(JoinTable.ownerColumn), destination = SQLName.quote(JoinTable.destinationColumn)
        return "CREATE TABLE \(SQLName.quote(name ?? table.name)) (\(owner) INTEGER NOT NULL REFERENCES \(SQLName.quote(table.ownerTable))(\(SQLName.quote(primaryKey)))"
            + " ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, \(destination) INTEGER NOT NULL REFERENCES "
            + "\(SQLName.quote(table.destinationTable))(\(SQLName.quote(primaryKey))) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, "
            + "\(SQLName.quote(JoinTable.positionColumn)) INTEGER, PRIMARY KEY (\(owner), \(destination))) WITHOUT ROWID"
    }

    /// The index that finds a join table's links from their destination.
    static func index(for table: JoinTable) -> IndexDefinition {
        IndexDefinition(name: table.name + "_destination", table: table.name,
                        columns: [JoinTable.destinationColumn, JoinTable.ownerColumn], isUnique: false)
    }

    /// The column names of an entity's table, in order: `_pk`, `_version`, then each slot's.
    static func columnNames(for entity: EntityDescription) -> [String] {
        [primaryKey, version] + entity.columns.map(\.name)
    }

    /// The tables a model's entities are stored in, each with its entity (an inheritance
    /// tree's root for the tree's table) and every column it has.
    static func tables(of model: ManagedObjectModel) -> [(entity: EntityDescription, columns: [String])] {
        model.entities.compactMap { entity in
            guard entity.tableName == entity.name else { return nil }
            let columns = [primaryKey, version] + tableColumns(of: entity).map(\.name)
                + (entity.inheritance == nil ? [] : [EntityInheritance.entityColumn])
            return (entity, columns)
        }
    }

    /// `SELECT "_pk", "_version", "a", "b" FROM "T"`: the columns every object read uses.
    static func selectColumns(for entity: EntityDescription) -> String {
        "SELECT " + columnNames(for: entity).map(SQLName.quote).joined(separator: ", ") + " FROM " + source(of: entity)
    }

    /// `INSERT` with the primary key first, then every slot's column (and in an inheritance
    /// tree the entity's name in `_entity`).
    static func insert(for entity: EntityDescription) -> String {
        "INSERT INTO \(table(of: entity)) (" + insertedColumns(of: entity)
            + ") VALUES (?, \(initialRowVersion)" + String(repeating: ", ?", count: entity.columns.count) + entityValue(of: entity) + ")"
    }

    /// `INSERT` of `rows` rows at once (see ``ChunkedRowInsert``); without `keys`, the key
    /// column is NULL and SQLite picks each row's.
    static func insert(for entity: EntityDescription, rows: Int, keys: Bool) -> String {
        let row = (keys ? "(?, " : "(NULL, ") + "\(initialRowVersion)" + String(repeating: ", ?", count: entity.columns.count)
            + entityValue(of: entity) + ")"
        return "INSERT INTO \(table(of: entity)) (" + insertedColumns(of: entity)
            + ") VALUES " + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    private static func insertedColumns(of entity: EntityDescription) -> String {
        (columnNames(for: entity) + (entity.inheritance == nil ? [] : [EntityInheritance.entityColumn]))
            .map(SQLName.quote).joined(separator: ", ")
    }

    private static func entityValue(of entity: EntityDescription) -> String {
        entity.inheritance == nil ? "" : ", " + SQLName.literal(entity.name)
    }

    /// The metadata key holding the highest primary key ever given to an entity's objects
    /// (the entities of an inheritance tree share their table's keys, and its mark).
    static func highWaterKey(for entity: EntityDescription) -> String {
        highWaterKey(forEntityNamed: entity.tableName)
    }

    static func highWaterKey(forEntityNamed name: String) -> String {
        "lastPrimaryKey." + name
    }

    static func update(for entity: EntityDescription, slots: [Int], checkVersion: Bool) -> String {
        let sets = slots.map { SQLName.quote(entity.columns[$0].name) + " = ?" }
            + ["\(SQLName.quote(version)) = \(SQLName.quote(version)) + 1"]
        return "UPDATE \(table(of: entity)) SET " + sets.joined(separator: ", ")
            + " WHERE \(SQLName.quote(primaryKey)) = ?" + (checkVersion ? " AND \(SQLName.quote(version)) = ?" : "")
    }

    static func delete(for entity: EntityDescription) -> String {
        "DELETE FROM \(table(of: entity)) WHERE \(SQLName.quote(primaryKey)) = ? AND \(SQLName.quote(version)) = ?"
    }
}
