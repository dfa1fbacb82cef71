/// Infers the schema change between two consecutive model versions by comparing them: the
/// lightweight migration.
///
/// Entities, attributes and relationships are matched by name, else by the `originalName` the
/// new version declares (a rename). What it infers: entities, attributes and relationships
/// added or removed; renames; an attribute made optional, or required (existing nils take the
/// default); an integer widened (`Int16` → `Int32` → `Int`) or a `Float` made a `Double`;
/// defaults, delete rules, counts and validation rules changed (no data change); uniqueness
/// added or removed. What it refuses, naming the entity and attribute: any other change of
/// type, a relationship changing kind, destination or storage, and an `originalName` that the
/// old version does not have.
///
/// One planner compares one pair of models.
struct InferredStagePlanner {
    let old: ManagedObjectModel
    let new: ManagedObjectModel

    static func plan(from old: ManagedObjectModel, to new: ManagedObjectModel) throws -> SchemaMapping {
        try InferredStagePlanner(old: old, new: new).plan()
    }

    func plan() throws -> SchemaMapping {
        let sources = try entitySources()
        try checkTables(sources)
        var tables: [SchemaMapping.EntityTable] = []
        // One mapping per table: an entity in no tree, or the root of a tree.
        for entity in new.entities where entity.tableName == entity.name {
            guard let source = sources[entity.name] else {
                tables.append(SchemaMapping.EntityTable(entity: entity, source: nil, columns: []))
                continue
            }
            if entity.inheritance != nil || source.inheritance != nil {
                tables.append(try treeTable(entity, source, sources))
            } else {
                tables.append(SchemaMapping.EntityTable(entity: entity, source: source, columns: try columnSources(entity, source, sources)))
            }
        }
        let claimed = Set(tables.compactMap(\.source?.name))
        let joins = try joinTables(sources)
        let oldJoinTables = old.entities.flatMap { $0.ownedJoinTables.map(\.name) }
        let keptJoinTables = Set(joins.compactMap { $0.source?.name })
        return SchemaMapping(from: old, to: new, entityTables: tables, joinTables: joins,
                            droppedEntityTables: old.entities.filter { $0.tableName == $0.name }.map(\.name)
                                .filter { !claimed.contains($0) },
                            droppedJoinTables: oldJoinTables.filter { !keptJoinTables.contains($0) })
    }

    private var versions: String { "version \(old.version) to \(new.version)" }

    func refuse(_ message: String, entity: String, attribute: String? = nil) -> PersistError {
        PersistError(.incompatibleModel, "Cannot migrate the model from \(versions): \(message)", entity: entity, attribute: attribute)
    }

    // MARK: Entities

    /// Each new entity's old entity (by name, else by its original name); new ones have none.
    private func entitySources() throws -> [String: EntityDescription] {
        var sources: [String: EntityDescription] = [:]
        var claimedBy: [String: String] = [:]
        for entity in new.entities {
            var source = old.entity(named: entity.name)
            if source == nil, let original = entity.originalName {
                source = old.entity(named: original)
                if source == nil {
                    throw refuse("\(entity.name) says it was called \(original), but version \(old.version) has no entity \(original)",
                                 entity: entity.name)
                }
            }
            guard let source else { continue }
            if let other = claimedBy[source.name] {
                throw refuse("\(other) and \(entity.name) both take the place of \(source.name)", entity: entity.name)
            }
            claimedBy[source.name] = entity.name
            sources[entity.name] = source
        }
        // Matched by name while its original name is in the old version too, unclaimed: which
        // one the new entity continues is not clear, and the other's objects would be dropped.
        for entity in new.entities {
            if let original = entity.originalName, original != entity.name, old.entity(named: entity.name) != nil,
               old.entity(named: original) != nil, claimedBy[original] == nil {
                throw refuse(ambiguity(entity.name, original, "entities"), entity: entity.name)
            }
        }
        return sources
    }

    // MARK: Columns

    func columnSources(_ entity: EntityDescription, _ source: EntityDescription,
                               _ sources: [String: EntityDescription]) throws -> [SchemaMapping.ColumnSource] {
        let attributes = try matches(entity.attributes, in: source, of: entity, name: \.name, original: \.originalName,
                                     lookup: { source.attribute(named: $0) }, what: "attribute")
        let relationships = try matches(entity.relationships, in: source, of: entity, name: \.name, original: \.originalName,
                                        lookup: { source.relationship(named: $0) }, what: "relationship")
        for (relationship, previous) in zip(entity.relationships, relationships) {
            if let previous { try checkRelationship(relationship, of: entity, was: previous, sources) }
        }
        return try entity.columns.map { column in
            switch column.role {
            case .attribute:
                let attribute = entity.attributes[column.slot]
                return try attributeSource(attribute, of: entity, was: attributes[column.slot])
            case .foreignKey(let index):
                return relationships[index].map { .column($0.name) } ?? .value(.null)
            case .position(let index):
                guard let previous = relationships[index], case .foreignKey(_, _?) = previous.storage else { return .value(.null) }
                return .column(StoredColumn.positionColumnName(for: previous.name))
            case .otherEntity:
                return .value(.null)
            }
        }
    }

    /// Each new property's old one: the same name, else its original name (which must exist).
    private func matches<Property>(_ properties: [Property], in source: EntityDescription, of entity: EntityDescription,
                                   name: KeyPath<Property, String>, original: KeyPath<Property, String?>,
                                   lookup: (String) -> Property?, what: String) throws -> [Property?] {
        var claimedBy: [String: String] = [:]
        let result: [Property?] = try properties.map { property in
            var previous = lookup(property[keyPath: name])
            var previousName = property[keyPath: name]
            if previous == nil, let originalName = property[keyPath: original] {
                previous = lookup(originalName)
                previousName = originalName
                if previous == nil {
                    throw refuse("\(entity.name).\(property[keyPath: name]) says it was called \(originalName), but \(source.name) "
                                 + "in version \(old.version) has no \(what) \(originalName)",
                                 entity: entity.name, attribute: property[keyPath: name])
                }
            }
            guard previous != nil else { return nil }
            if let other = claimedBy[previousName] {
                throw refuse("\(entity.name).\(other) and \(entity.name).\(property[keyPath: name]) both take the place of "
                             + "\(source.name).\(previousName)", entity: entity.name, attribute: property[keyPath: name])
            }
            claimedBy[previousName] = property[keyPath: name]
            return previous
        }
        for property in properties {
            let propertyName = property[keyPath: name]
            if let original = property[keyPath: original], original != propertyName, lookup(original) != nil,
               claimedBy[propertyName] == propertyName, claimedBy[original] == nil {
                throw refuse(ambiguity("\(entity.name).\(propertyName)", original, "\(what)s of \(source.name)"),
                             entity: entity.name, attribute: propertyName)
            }
        }
        return result
    }

    private func ambiguity(_ name: String, _ original: String, _ what: String) -> String {
        "\(name) says it was called \(original), but version \(old.version) has both \(what) (\(original) and its own name): "
            + "the migration would keep one and drop the other; remove the original name, or rename in two versions"
    }

    private func attributeSource(_ attribute: AttributeDescription, of entity: EntityDescription,
                                 was previous: AttributeDescription?) throws -> SchemaMapping.ColumnSource {
        guard let previous else { return .value(attribute.defaultValue ?? .null) }
        guard Self.canConvert(previous.type, to: attribute.type) else {
            throw refuse("\(entity.name).\(attribute.name) changes type from \(previous.type.rawValue) to \(attribute.type.rawValue), which "
                         + "cannot be inferred: add a new attribute and fill it from the old one in a custom stage",
                         entity: entity.name, attribute: attribute.name)
        }
        if previous.isOptional && !attribute.isOptional, let value = attribute.defaultValue {
            return .columnOrValue(previous.name, value)
        }
        return .column(previous.name)
    }

    /// Changes of type that keep every stored value as it is: wider integers, `Float` to `Double`.
    static func canConvert(_ from: AttributeType, to: AttributeType) -> Bool {
        if from == to { return true }
        let integers: [AttributeType: Int] = [.integer16: 16, .integer32: 32, .integer: 64, .integer64: 64]
        if let fromBits = integers[from], let toBits = integers[to] { return fromBits <= toBits }
        return from == .float && to == .double
    }

    // MARK: Relationships

    private func checkRelationship(_ relationship: RelationshipDescription, of entity: EntityDescription,
                                   was previous: RelationshipDescription, _ sources: [String: EntityDescription]) throws {
        let what = "\(entity.name).\(relationship.name)"
        guard relationship.kind == previous.kind else {
            throw refuse("\(what) changes from a \(previous.kind.rawValue) to a \(relationship.kind.rawValue) relationship, which cannot "
                         + "be inferred: add a new relationship and fill it in a custom stage", entity: entity.name, attribute: relationship.name)
        }
        // The destination must be the same entity, under its new name if it was renamed.
        guard sources[relationship.destinationEntityName]?.name == previous.destinationEntityName else {
            throw refuse("\(what) points at \(relationship.destinationEntityName) now, and pointed at \(previous.destinationEntityName) in "
                         + "version \(old.version): add a new relationship instead", entity: entity.name, attribute: relationship.name)
        }
        guard Self.storageKind(relationship.storage) == Self.storageKind(previous.storage) else {
            throw refuse("\(what) changes how it is stored (\(Self.storageKind(previous.storage)) in version \(old.version), "
                         + "\(Self.storageKind(relationship.storage)) now), because its inverse changed: add a new relationship and fill "
                         + "it in a custom stage", entity: entity.name, attribute: relationship.name)
        }
    }

    static func storageKind(_ storage: RelationshipStorage) -> String {
        switch storage {
        case .unresolved: return "unresolved"
        case .foreignKey: return "a foreign key"
        case .inverseForeignKey: return "its inverse's foreign key"
        case .joinTable: return "a join table"
        }
    }

    // MARK: Join tables

    /// Each join table of the new model, and the old table holding its links: found from its
    /// owning relationship's old self, or from its inverse's (when the other side owned it).
    private func joinTables(_ sources: [String: EntityDescription]) throws -> [SchemaMapping.JoinTableMapping] {
        var result: [SchemaMapping.JoinTableMapping] = []
        var claimed = Set<String>()
        for entity in new.entities {
            for relationship in entity.relationships {
                guard case .joinTable(let table, isOwner: true) = relationship.storage, table.ownerEntity == entity.name else { continue }
                var found: (table: JoinTable, swaps: Bool)?
                if let previous = previousRelationship(relationship, of: entity, sources),
                   case .joinTable(let old, let wasOwner) = previous.storage {
                    found = (old, !wasOwner)
                } else if let inverseName = relationship.inverseName,
                          let destination = new.entity(named: relationship.destinationEntityName),
                          let inverse = destination.relationship(named: inverseName),
                          let previous = previousRelationship(inverse, of: destination, sources),
                          case .joinTable(let old, let wasOwner) = previous.storage {
                    found = (old, wasOwner)
                }
                if let found {
                    guard claimed.insert(found.table.name).inserted else { continue }
                }
                result.append(SchemaMapping.JoinTableMapping(table: table, source: found?.table, swapsEnds: found?.swaps ?? false))
            }
        }
        return result
    }

    /// The old version of a new relationship (matched as `columnSources` matches it).
    private func previousRelationship(_ relationship: RelationshipDescription, of entity: EntityDescription,
                                      _ sources: [String: EntityDescription]) -> RelationshipDescription? {
        guard let source = sources[entity.name] else { return nil }
        return source.relationship(named: relationship.name) ?? relationship.originalName.flatMap { source.relationship(named: $0) }
    }
}
