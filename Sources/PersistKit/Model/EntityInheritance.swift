/// An entity's place in an inheritance tree: the entities of one tree share one table, named
/// after the tree's root, whose `_entity` column names each row's concrete entity (Core Data's
/// `Z_ENT`). A sub-entity's own attributes are nullable columns of that table: their
/// required-ness is checked by validation, not by `NOT NULL`.
///
/// Entities outside any tree (no parent, no children) have none, and keep a table of their own
/// with no `_entity` column, exactly as stores were before inheritance existed.
struct EntityInheritance: Sendable {
    /// The column naming each row's entity.
    static let entityColumn = "_entity"

    /// The tree's root entity, which names the table.
    let tableName: String
    /// The entities inheriting from this one directly.
    let subentityNames: [String]
    /// The entities this one inherits from, its parent first: a relationship to any of them
    /// may hold this entity's objects.
    let ancestorNames: [String]
    /// This entity and every entity below it that can have objects (not abstract), in the
    /// model's order: the rows a fetch of this entity reads when it includes sub-entities.
    let concreteEntityNames: [String]
    /// The table's columns after `_pk` and `_version`, without `_entity`: every entity's
    /// attributes (sub-entities' nullable), then the foreign keys and positions of the to-ones
    /// declared in the tree (`RelationshipResolver` adds those, `withRelationshipColumns`).
    /// Each entity's storage has all of them, so a relationship column is in the same slot,
    /// its index here, in every entity of the tree.
    let tableColumns: [StoredColumn]
    /// For each of this entity's uniqueness constraints (its parent's first, in their order, then
    /// its own), the entity that declares it highest in the tree: the values must be unique
    /// among that entity's objects and its sub-entities' (all the tree's, for the root's).
    let uniquenessScopes: [String]
    /// Every uniqueness constraint of the tree, once, with the rows it spans: one unique index
    /// each on the tree's table. Only the root's placement needs them; others hold the same.
    let treeConstraints: [ScopedConstraint]

    /// A uniqueness constraint of a tree: declared (highest) by `scope`, the `index`th of its
    /// constraints, spanning the rows of `entityNames` (nil: the whole table, for the root's).
    struct ScopedConstraint: Sendable, Equatable {
        let scope: String
        let index: Int
        let keys: [String]
        let entityNames: [String]?
    }

    /// The number of attribute columns at the start of `tableColumns`.
    var attributeColumnCount: Int {
        tableColumns.firstIndex { if case .attribute = $0.role { false } else { true } } ?? tableColumns.count
    }

    /// The same placement, the tree's relationship columns (foreign keys, positions) appended.
    func withRelationshipColumns(_ columns: [StoredColumn]) -> EntityInheritance {
        EntityInheritance(tableName: tableName, subentityNames: subentityNames, ancestorNames: ancestorNames,
                          concreteEntityNames: concreteEntityNames,
                          tableColumns: Array(tableColumns.prefix(attributeColumnCount)) + columns,
                          uniquenessScopes: uniquenessScopes, treeConstraints: treeConstraints)
    }

    /// An entity's columns in the tree: its attributes (in their slots), the tree's other
    /// attribute columns (another entity's: `.otherEntity`), then every relationship column of
    /// the tree in its slot, as the entity's own foreign key or position where it has that
    /// relationship. Every entity of the tree has as many columns as the table.
    func columns(attributes: [AttributeDescription], relationships: [RelationshipDescription]) -> [StoredColumn] {
        var columns = attributes.map {
            StoredColumn(name: $0.name, slot: $0.index, type: $0.type, isOptional: $0.isOptional, role: .attribute, keyName: $0.name)
        }
        let own = Set(attributes.map { $0.name.lowercased() })
        let attributeColumns = attributeColumnCount
        for column in tableColumns.prefix(attributeColumns) where !own.contains(column.name.lowercased()) {
            columns.append(StoredColumn(name: column.name, slot: columns.count, type: column.type, isOptional: true,
                                        role: .otherEntity, keyName: column.name))
        }
        let byName = Dictionary(relationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for column in tableColumns.dropFirst(attributeColumns) {
            var role = StoredColumn.Role.otherEntity
            switch column.role {
            case .foreignKey:
                if let relationship = byName[column.keyName], relationship.kind == .toOne { role = .foreignKey(relationship: relationship.index) }
            case .position:
                if let relationship = byName[column.keyName], relationship.kind == .toOne { role = .position(relationship: relationship.index) }
            case .attribute, .otherEntity:
                break
            }
            columns.append(StoredColumn(name: column.name, slot: columns.count, type: column.type, isOptional: true,
                                        role: role, keyName: column.keyName))
        }
        return columns
    }

    /// The entities with their inheritance placed: each class-backed entity whose superclass
    /// (the nearest one that is an entity of the model) is in the model becomes its sub-entity;
    /// a document's entities name their parent. Checks that every sub-entity starts with its
    /// parent's attributes (where their values are kept too: a tree's column holds files'
    /// references for every entity or for none), and that no two entities of a tree add the
    /// same column.
    static func place(_ entities: [EntityDescription]) throws -> [EntityDescription] {
        var byClass: [ObjectIdentifier: String] = [:]
        var byName: [String: EntityDescription] = [:]
        for entity in entities {
            if entity.isClassBacked { byClass[ObjectIdentifier(entity.objectClass)] = entity.name }
            byName[entity.name] = entity
        }
        var parents: [String: String] = [:]
        for entity in entities {
            let parent = entity.isClassBacked ? entity.superclasses.lazy.compactMap { byClass[$0] }.first : entity.superentityName
            guard let parent else { continue }
            guard byName[parent] != nil else {
                throw PersistError(.invalidModel, "\(entity.name) inherits from \(parent), which is not an entity of the model",
                                   entity: entity.name)
            }
            parents[entity.name] = parent
        }
        guard !parents.isEmpty else {
            if let abstract = entities.first(where: \.isAbstract) {
                throw PersistError(.invalidModel,
                    "\(abstract.name) is abstract but no entity of the model inherits from it: it could never have objects",
                    entity: abstract.name)
            }
            return entities
        }
        var children: [String: [String]] = [:]
        for entity in entities { if let parent = parents[entity.name] { children[parent, default: []].append(entity.name) } }
        func root(of name: String) -> String {
            var current = name
            while let parent = parents[current] { current = parent }
            return current
        }
        func subtree(of name: String) -> [String] {
            [name] + (children[name] ?? []).flatMap(subtree)
        }
        var tableColumns: [String: [StoredColumn]] = [:]
        var constraints: [String: (keys: [[String]], scopes: [String])] = [:]
        var treeConstraints: [String: [ScopedConstraint]] = [:]
        for entity in entities where parents[entity.name] == nil && children[entity.name] != nil {
            tableColumns[entity.name] = try columns(ofTreeAt: entity, byName: byName, parents: parents, subtree: subtree(of: entity.name))
            for name in subtree(of: entity.name) {
                guard let member = byName[name] else { continue }
                let inherited = parents[name].flatMap { constraints[$0] } ?? ([], [])
                let own = member.uniquenessConstraints.filter { keys in !inherited.keys.contains { sameKeys($0, keys) } }
                constraints[name] = (inherited.keys + own, inherited.scopes + own.map { _ in name })
                let concrete = subtree(of: name).filter { byName[$0]?.isAbstract == false }
                treeConstraints[entity.name, default: []] += own.enumerated().map { offset, keys in
                    ScopedConstraint(scope: name, index: inherited.keys.count + offset, keys: keys,
                                     entityNames: name == entity.name ? nil : concrete)
                }
            }
        }
        return try entities.map { entity in
            let inTree = parents[entity.name] != nil || children[entity.name] != nil
            guard inTree else {
                if entity.isAbstract {
                    throw PersistError(.invalidModel,
                        "\(entity.name) is abstract but no entity of the model inherits from it: it could never have objects",
                        entity: entity.name)
                }
                return entity
            }
            let tree = root(of: entity.name)
            let unique = constraints[entity.name] ?? ([], [])
            let inheritance = EntityInheritance(
                tableName: tree, subentityNames: children[entity.name] ?? [],
                ancestorNames: Array(sequence(first: entity.name) { parents[$0] }.dropFirst()),
                concreteEntityNames: subtree(of: entity.name).filter { byName[$0]?.isAbstract == false },
                tableColumns: tableColumns[tree] ?? [], uniquenessScopes: unique.scopes,
                treeConstraints: treeConstraints[tree] ?? [])
            return entity.placed(superentityName: parents[entity.name], inheritance: inheritance, uniquenessConstraints: unique.keys)
        }
    }

    /// Whether two constraints name the same keys (in any order; without case, as SQLite
    /// compares names).
    private static func sameKeys(_ a: [String], _ b: [String]) -> Bool {
        a.map { $0.lowercased() }.sorted() == b.map { $0.lowercased() }.sorted()
    }

    /// The tree's table columns: the root's, then each sub-entity's own (those after its
    /// parent's), nullable, in the tree's order.
    private static func columns(ofTreeAt root: EntityDescription, byName: [String: EntityDescription],
                                parents: [String: String], subtree: [String]) throws -> [StoredColumn] {
        var columns = root.columns.filter { if case .attribute = $0.role { true } else { false } }
        var taken = Dictionary(columns.map { ($0.name.lowercased(), root.name) }, uniquingKeysWith: { first, _ in first })
        for name in subtree.dropFirst() {
            guard let entity = byName[name], let parentName = parents[name], let parent = byName[parentName] else { continue }
            let inherited = parent.attributes.count
            let matches = entity.attributes.count >= inherited
                && zip(entity.attributes, parent.attributes).allSatisfy { $0.name == $1.name && $0.type == $1.type && $0.isOptional == $1.isOptional }
            guard matches else {
                throw PersistError(.invalidModel,
                    "\(name) inherits from \(parentName) but does not start with its attributes ("
                    + parent.attributes.map(\.name).joined(separator: ", ") + ")", entity: name)
            }
            if let (own, inheritedAttribute) = zip(entity.attributes, parent.attributes).first(where: {
                $0.externalStorageThreshold != $1.externalStorageThreshold
            }) {
                func storage(_ attribute: AttributeDescription) -> String {
                    attribute.externalStorageThreshold.map { "is stored externally above \($0) bytes" } ?? "is not stored externally"
                }
                throw PersistError(.invalidModel,
                    "\(name).\(own.name) \(storage(own)) but \(parentName).\(own.name) \(storage(inheritedAttribute)): the entities of a "
                    + "tree share its column, so declare .externalStorage the same way on both", entity: name, attribute: own.name)
            }
            let relationshipsMatch = entity.declaredRelationships.count >= parent.declaredRelationships.count
                && zip(entity.declaredRelationships, parent.declaredRelationships).allSatisfy {
                    $0.name == $1.name && $0.kind == $1.kind && $0.destinationName == $1.destinationName
                }
            guard relationshipsMatch else {
                throw PersistError(.invalidModel,
                    "\(name) inherits from \(parentName) but does not start with its relationships ("
                    + parent.declaredRelationships.map(\.name).joined(separator: ", ") + ")", entity: name)
            }
            for attribute in entity.attributes[inherited...] {
                if let owner = taken[attribute.name.lowercased()] {
                    throw PersistError(.invalidModel,
                        "\(name).\(attribute.name) and \(owner).\(attribute.name) would share a column of the table \(root.name), "
                        + "which their inheritance tree shares: declare it once, on a common parent, or rename one",
                        entity: name, attribute: attribute.name)
                }
                taken[attribute.name.lowercased()] = name
                columns.append(StoredColumn(name: attribute.name, slot: columns.count, type: attribute.type, isOptional: true,
                                            role: .attribute, keyName: attribute.name))
            }
        }
        if taken[entityColumn] != nil {
            throw PersistError(.invalidModel, "\(root.name) has a column named \(entityColumn), which inheritance reserves",
                               entity: root.name, attribute: entityColumn)
        }
        return columns
    }
}
