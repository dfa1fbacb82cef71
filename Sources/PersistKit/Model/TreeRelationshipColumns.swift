/// The relationship columns of one inheritance tree's table: the foreign key of every to-one
/// declared by an entity of the tree, then the position of each whose inverse is ordered, in
/// the slots after the tree's attribute columns. Every entity of the tree has them all, in
/// these slots (`EntityInheritance.columns`), so a relationship a sub-entity inherits is in
/// the same slot on its objects as on its parent's, and one description reads any of them.
struct TreeRelationshipColumns {
    /// The columns, each in its slot.
    let columns: [StoredColumn]
    private let slots: [String: Int]

    /// The slot of the column named `name`.
    func slot(of name: String) -> Int { slots[name] ?? -1 }

    /// The relationship columns of each tree (by its table's name) that has any. Refuses two
    /// entities of a tree declaring columns of the same name: they would share one column.
    static func place(_ entities: [EntityDescription], byName: [String: EntityDescription],
                      isOrderedInverse: (Int, EntityDescription) -> Bool) throws -> [String: TreeRelationshipColumns] {
        var result: [String: TreeRelationshipColumns] = [:]
        for root in entities {
            guard let inheritance = root.inheritance, inheritance.tableName == root.name else { continue }
            let base = inheritance.attributeColumnCount
            var taken = Dictionary(inheritance.tableColumns.prefix(base).map { ($0.name.lowercased(), "an attribute") },
                                   uniquingKeysWith: { first, _ in first })
            var foreignKeys: [StoredColumn] = [], positions: [StoredColumn] = []
            for entity in entities where entity.tableName == root.name {
                let inherited = entity.superentityName.flatMap { byName[$0] }?.declaredRelationships.count ?? 0
                for (index, declaration) in entity.declaredRelationships.enumerated() where index >= inherited && declaration.kind == .toOne {
                    var names = [declaration.name]
                    if isOrderedInverse(index, entity) { names.append(StoredColumn.positionColumnName(for: declaration.name)) }
                    for name in names {
                        if let owner = taken[name.lowercased()] {
                            throw PersistError(.invalidModel,
                                "\(entity.name).\(declaration.name) would store its column \(name) in the table \(root.name), which its "
                                + "inheritance tree shares, where \(owner) has one of that name: rename one",
                                entity: entity.name, attribute: declaration.name)
                        }
                        taken[name.lowercased()] = "\(entity.name).\(declaration.name)"
                    }
                    let destinationTable = byName[declaration.destinationName]?.tableName ?? declaration.destinationName
                    foreignKeys.append(StoredColumn(name: declaration.name, slot: 0, type: .integer, isOptional: true,
                                                    role: .foreignKey(relationship: index), keyName: declaration.name,
                                                    referencedTableName: destinationTable))
                    if names.count > 1 {
                        positions.append(StoredColumn(name: names[1], slot: 0, type: .integer, isOptional: true,
                                                      role: .position(relationship: index), keyName: declaration.name))
                    }
                }
            }
            guard !foreignKeys.isEmpty else { continue }
            let columns = (foreignKeys + positions).enumerated().map { offset, column in
                StoredColumn(name: column.name, slot: base + offset, type: column.type, isOptional: true, role: column.role,
                             keyName: column.keyName, referencedTableName: column.referencedTableName)
            }
            result[root.name] = TreeRelationshipColumns(columns: columns,
                                                        slots: Dictionary(uniqueKeysWithValues: columns.map { ($0.name, $0.slot) }))
        }
        return result
    }
}
