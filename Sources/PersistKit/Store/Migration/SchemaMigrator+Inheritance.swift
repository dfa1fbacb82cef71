/// The rows of an inheritance tree's table in a migration (see `SchemaMapping.TreeRows`):
/// told apart by `_entity`.
extension SchemaMigrator {
    /// Before the table's columns change: deletes the rows of removed entities and rewrites the
    /// `_entity` of renamed ones (in one statement, so two entities may trade names).
    func relabelRows(of entity: EntityDescription, _ tree: SchemaMapping.TreeRows) throws {
        let table = SQLName.quote(entity.name), column = SQLName.quote(EntityInheritance.entityColumn)
        if !tree.removed.isEmpty {
            report("deleting the objects of \(tree.removed.joined(separator: ", "))")
            try connection.execute("DELETE FROM \(table) WHERE \(column) IN (" + tree.removed.map(SQLName.literal).joined(separator: ", ") + ")")
        }
        guard !tree.renamed.isEmpty else { return }
        report("renaming entities of \(entity.name)")
        let cases = tree.renamed.map { " WHEN \(SQLName.literal($0.from)) THEN \(SQLName.literal($0.to))" }.joined()
        try connection.execute("UPDATE \(table) SET \(column) = CASE \(column)\(cases) END WHERE \(column) IN ("
                               + tree.renamed.map { SQLName.literal($0.from) }.joined(separator: ", ") + ")")
    }

    /// After the table's columns changed: gives a sub-entity's rows the values it gives them
    /// where they have none, then checks that its required attributes have a value in each of
    /// its rows (the column accepts NULL: other entities' rows have none).
    func fillRows(of entity: EntityDescription, _ tree: SchemaMapping.TreeRows) throws {
        let table = SQLName.quote(entity.name), entityColumn = SQLName.quote(EntityInheritance.entityColumn)
        func rows(_ fill: SchemaMapping.Fill) -> String {
            "\(entityColumn) IN (" + fill.entities.map(SQLName.literal).joined(separator: ", ") + ") AND \(SQLName.quote(fill.column)) IS NULL"
        }
        for fill in tree.fills {
            let update = try connection.prepare("UPDATE \(table) SET \(SQLName.quote(fill.column)) = ? WHERE " + rows(fill))
            try update.bind([fill.value])
            try update.run()
        }
        for fill in tree.required {
            let statement = try connection.prepare("SELECT \(SQLName.quote(SchemaSQL.primaryKey)), \(entityColumn) FROM \(table) WHERE "
                                                   + rows(fill) + " ORDER BY 1 LIMIT 10")
            var objects: [ObjectID] = []
            while try statement.step() { objects.append(objectID(statement.string(at: 1), statement.int64(at: 0))) }
            guard !objects.isEmpty else { continue }
            let missing = Int(try connection.singleInt("SELECT count(*) FROM \(table) WHERE " + rows(fill)) ?? 0)
            throw PersistError(.validation,
                "Cannot migrate \(fill.entity).\(fill.attribute) to a required attribute: \(missing) \(fill.entity) object"
                + "\(missing == 1 ? " has" : "s have") no value for it; give it a default value, or keep it optional and fill it in "
                + "a custom stage's didMigrate; nothing was changed",
                entity: fill.entity, attribute: fill.attribute, objectIDs: objects)
        }
    }
}
