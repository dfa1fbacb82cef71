/// What an inferred migration between two model versions does, in words, one line a change:
/// what `persistkit model diff` prints. A change the planner cannot infer throws the planner's
/// error, which names the entity and attribute and says what a custom stage must do.
package enum MigrationDescription {
    /// The changes from `old` to `new` (empty: the stored data does not change).
    ///
    /// - Throws: ``PersistError`` `.incompatibleModel` for a change only a custom stage can make.
    package static func changes(from old: ManagedObjectModel, to new: ManagedObjectModel) throws -> [String] {
        let change = try InferredStagePlanner.plan(from: old, to: new)
        var lines: [String] = []
        for table in change.entityTables {
            let entity = table.entity
            guard let source = table.source else {
                lines.append("adds entity \(entity.name) (a new, empty table)")
                continue
            }
            if source.name != entity.name { lines.append("renames entity \(source.name) to \(entity.name) (its objects keep their keys)") }
            lines += attributeChanges(entity, source)
            lines += relationshipChanges(entity, source)
            lines += uniquenessChanges(entity, source)
            if let tree = table.tree { lines += treeChanges(table.entity, tree, change) }
        }
        for name in change.droppedEntityTables { lines.append("removes entity \(name) (its objects are deleted)") }
        return lines
    }

    /// The changes to the entities of an inheritance tree below its root (the root's are the
    /// table's): each sub-entity added, renamed or removed, and its own attributes' changes.
    private static func treeChanges(_ root: EntityDescription, _ tree: SchemaMapping.TreeRows, _ change: SchemaMapping) -> [String] {
        var lines: [String] = []
        if !tree.hadEntityColumn, root.inheritance != nil { lines.append("makes \(root.name) the root of an inheritance tree") }
        let renamedFrom = Dictionary(tree.renamed.map { ($0.to, $0.from) }, uniquingKeysWith: { first, _ in first })
        func inherited(_ entity: EntityDescription, in model: ManagedObjectModel) -> Int {
            entity.superentityName.flatMap(model.entity(named:))?.attributes.count ?? 0
        }
        for entity in change.to.entities where entity.tableName == root.name && entity !== root {
            guard let source = change.from.entity(named: renamedFrom[entity.name] ?? entity.name),
                  source.tableName == change.from.entity(named: renamedFrom[root.name] ?? root.name)?.tableName else {
                lines.append("adds entity \(entity.name) (a sub-entity of \(entity.superentityName ?? root.name))")
                continue
            }
            if source.name != entity.name { lines.append("renames entity \(source.name) to \(entity.name) (its objects keep their keys)") }
            lines += attributeChanges(entity, source, from: inherited(entity, in: change.to), sourceFrom: inherited(source, in: change.from))
        }
        for name in tree.removed { lines.append("removes entity \(name) (its objects are deleted)") }
        return lines
    }

    /// The changes to an entity's attributes (from the `from`th on; its old self's from the
    /// `sourceFrom`th on: a sub-entity's own, after its parent's).
    private static func attributeChanges(_ entity: EntityDescription, _ source: EntityDescription,
                                         from first: Int = 0, sourceFrom sourceFirst: Int = 0) -> [String] {
        var lines: [String] = []
        var matched: Set<String> = []
        for attribute in entity.attributes.dropFirst(first) {
            let name = "\(entity.name).\(attribute.name)"
            guard let previous = source.attribute(named: attribute.name) ?? attribute.originalName.flatMap(source.attribute(named:)) else {
                lines.append("adds attribute \(name) (\(typeText(attribute))): existing objects get "
                             + (attribute.defaultValue.map { "the default \($0)" } ?? "nil"))
                continue
            }
            matched.insert(previous.name)
            if previous.name != attribute.name { lines.append("renames attribute \(entity.name).\(previous.name) to \(attribute.name)") }
            if previous.type != attribute.type {
                lines.append("widens \(name) from \(previous.type.rawValue) to \(attribute.type.rawValue) (every value kept)")
            }
            if previous.isOptional && !attribute.isOptional {
                lines.append("makes \(name) required: " + (attribute.defaultValue.map { "existing nils become the default \($0)" }
                                                          ?? "an existing object with nil fails the migration (give it a default)"))
            } else if !previous.isOptional && attribute.isOptional {
                lines.append("makes \(name) optional")
            }
            if previous.defaultValue != attribute.defaultValue {
                lines.append("changes the default of \(name) to \(attribute.defaultValue.map { "\($0)" } ?? "none") (no stored value changes)")
            }
        }
        for attribute in source.attributes.dropFirst(sourceFirst) where !matched.contains(attribute.name) {
            lines.append("removes attribute \(entity.name).\(attribute.name) (its values are dropped)")
        }
        return lines
    }

    private static func relationshipChanges(_ entity: EntityDescription, _ source: EntityDescription) -> [String] {
        var lines: [String] = []
        var matched: Set<String> = []
        for relationship in entity.relationships {
            let name = "\(entity.name).\(relationship.name)"
            guard let previous = source.relationship(named: relationship.name)
                    ?? relationship.originalName.flatMap(source.relationship(named:)) else {
                lines.append("adds relationship \(name) (\(relationship.kind.words) to \(relationship.destinationEntityName)): "
                             + "existing objects start with none")
                continue
            }
            matched.insert(previous.name)
            if previous.name != relationship.name { lines.append("renames relationship \(entity.name).\(previous.name) to \(relationship.name)") }
            if previous.deleteRule != relationship.deleteRule {
                lines.append("changes the delete rule of \(name) from \(previous.deleteRule.rawValue) to \(relationship.deleteRule.rawValue) "
                             + "(no stored value changes)")
            }
        }
        for relationship in source.relationships where !matched.contains(relationship.name) {
            lines.append("removes relationship \(entity.name).\(relationship.name) (its links are dropped)")
        }
        return lines
    }

    private static func uniquenessChanges(_ entity: EntityDescription, _ source: EntityDescription) -> [String] {
        let renamed: [String: String] = Dictionary(entity.attributes.compactMap { attribute in
            attribute.originalName.map { ($0, attribute.name) }
        }, uniquingKeysWith: { first, _ in first })
        let old = Set(source.uniquenessConstraints.map { $0.map { renamed[$0] ?? $0 }.sorted() })
        let new = Set(entity.uniquenessConstraints.map { $0.sorted() })
        return new.subtracting(old).sorted { $0.joined() < $1.joined() }.map {
            "makes \(entity.name)(\($0.joined(separator: ", "))) unique: existing objects that share values fail the migration"
        } + old.subtracting(new).sorted { $0.joined() < $1.joined() }.map {
            "drops the uniqueness of \(entity.name)(\($0.joined(separator: ", ")))"
        }
    }

    private static func typeText(_ attribute: AttributeDescription) -> String {
        attribute.type.rawValue + (attribute.isOptional ? ", optional" : "")
    }
}
