/// The lightweight migration of inheritance trees: a tree's entities share one table (see
/// `EntityInheritance`), so the table is mapped once, from its root, with every entity's
/// columns, and the rows of each entity are told apart by `_entity`.
extension InferredStagePlanner {
    /// Refuses an entity whose rows would have to move to another table: one that joins or
    /// leaves an inheritance tree (a plain entity becoming a sub-entity, a sub-entity becoming
    /// an entity of its own). A plain entity becoming a tree's root keeps its table.
    func checkTables(_ sources: [String: EntityDescription]) throws {
        for entity in new.entities {
            guard let source = sources[entity.name], sources[entity.tableName]?.name != source.tableName else { continue }
            throw refuse("\(entity.name)'s objects are in the table of \(source.tableName) in version \(old.version), and would be in "
                         + "that of \(entity.tableName): an entity cannot join or leave an inheritance tree by an inferred migration "
                         + "(add a new entity and copy the objects in a custom stage)", entity: entity.name)
        }
    }

    /// The mapping of a tree's table (or of a table that was one): every entity's columns from
    /// their old selves', the rows of renamed entities relabeled, those of removed ones deleted,
    /// and a sub-entity's new values given to its own rows only.
    func treeTable(_ root: EntityDescription, _ source: EntityDescription,
                   _ sources: [String: EntityDescription]) throws -> SchemaMapping.EntityTable {
        var rows = SchemaMapping.TreeRows()
        rows.hadEntityColumn = source.inheritance != nil
        let members = new.entities.filter { $0.tableName == root.name }
        var origins: [String: SchemaMapping.ColumnSource] = [:]
        for entity in members {
            let previous = sources[entity.name]
            if let previous, previous.name != entity.name { rows.renamed.append((previous.name, entity.name)) }
            let entityOrigins = try previous.map { try columnSources(entity, $0, sources) }
            // Each column is mapped with the entity that declares it (every entity of the tree
            // has every column of the table: see `EntityInheritance.columns`).
            let parent = entity === root ? nil : entity.superentityName.flatMap(new.entity(named:))
            let subtree = subtreeNames(of: entity)
            for (index, column) in entity.columns.enumerated() where column.isDeclared(by: entity, parent: parent) {
                let origin = entityOrigins?[index] ?? .value(.null)
                guard entity !== root else {
                    origins[column.name] = origin
                    continue
                }
                // The column is nullable in the table (other entities' rows have none): values
                // a sub-entity's rows take are filled in for those rows only.
                func fill(_ value: SQLValue) -> SchemaMapping.Fill {
                    SchemaMapping.Fill(entity: entity.name, attribute: column.keyName, column: column.name, entities: subtree, value: value)
                }
                switch origin {
                case .column(let name):
                    origins[column.name] = .column(name)
                case .columnOrValue(let name, let value):
                    origins[column.name] = .column(name)
                    rows.fills.append(fill(value))
                case .value(let value):
                    origins[column.name] = .value(.null)
                    if !value.isNull { rows.fills.append(fill(value)) }
                }
                if previous != nil, case .attribute = column.role, !column.keyIsOptional(in: entity) {
                    rows.required.append(fill(.null))
                }
            }
        }
        if rows.hadEntityColumn {
            let kept = Set(members.compactMap { sources[$0.name]?.name })
            rows.removed = old.entities.filter { $0.tableName == source.name && !kept.contains($0.name) }.map(\.name)
        }
        var table = SchemaMapping.EntityTable(entity: root, source: source,
                                              columns: SchemaSQL.tableColumns(of: root).map { origins[$0.name] ?? .value(.null) })
        table.tree = rows
        return table
    }

    /// An entity of the new model and every entity below it.
    private func subtreeNames(of entity: EntityDescription) -> [String] {
        [entity.name] + entity.subentityNames.flatMap { name in new.entity(named: name).map(subtreeNames) ?? [name] }
    }
}

private extension StoredColumn {
    /// Whether `entity` declares this column (it is not its parent's, nor another entity's).
    func isDeclared(by entity: EntityDescription, parent: EntityDescription?) -> Bool {
        switch role {
        case .attribute: slot >= parent?.attributes.count ?? 0
        case .foreignKey(let index), .position(let index): index >= parent?.relationships.count ?? 0
        case .otherEntity: false
        }
    }

    /// Whether the attribute this column stores is optional for `entity`.
    func keyIsOptional(in entity: EntityDescription) -> Bool {
        entity.attribute(named: keyName)?.isOptional ?? true
    }
}
