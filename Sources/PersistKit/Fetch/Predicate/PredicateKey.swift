/// The keys of resolved predicates and sorts: an attribute (`name`), a key path through to-one
/// relationships (`project.owner.name`, nil when a to-one on the way is nil), a to-one itself
/// (`project`, compared with objects), or the object itself (``selfKey``).
enum PredicateKey {
    /// The object itself (its primary key in SQL, its reference in memory). Attribute names
    /// cannot start with `_`, so no attribute is named this.
    static let selfKey = "_pk"
    /// The most relationships one key path may follow.
    static let maximumHops = 16

    /// Whether `key` may read beyond the object's own attributes (syntactically: a dotted path
    /// or the object itself; a to-one's own name needs the entity to tell).
    static func isPath(_ key: String) -> Bool {
        key == selfKey || key.contains(".")
    }

    /// One to-one followed by a key path, from `entity`.
    struct Hop: Sendable {
        let entity: EntityDescription
        let relationship: RelationshipDescription
        let destination: EntityDescription
    }

    /// A key resolved against an entity.
    struct Resolved {
        enum Target {
            case attribute(AttributeDescription)
            /// A to-one compared with objects (its foreign key).
            case toOne(RelationshipDescription)
            /// The object itself.
            case object
        }

        let hops: [Hop]
        /// The entity the target belongs to (the last hop's destination, or the key's entity).
        let entity: EntityDescription
        let target: Target

        /// The target's key in its own entity (`name` for `project.owner.name`).
        var localKey: String {
            switch target {
            case .attribute(let attribute): return attribute.name
            case .toOne(let relationship): return relationship.name
            case .object: return PredicateKey.selfKey
            }
        }
    }

    /// Resolves a key against an entity.
    ///
    /// - Throws: ``PersistError`` `.invalidPredicate` naming the entity and key when a component
    ///   is unknown, when the path goes through a to-many, or is longer than ``maximumHops``.
    static func resolve(_ key: String, in entity: EntityDescription) throws -> Resolved {
        if key == selfKey { return Resolved(hops: [], entity: entity, target: .object) }
        let components = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var hops: [Hop] = []
        var current = entity
        for (offset, component) in components.enumerated() {
            let isLast = offset == components.count - 1
            if isLast, let attribute = current.attribute(named: component) {
                return Resolved(hops: hops, entity: current, target: .attribute(attribute))
            }
            guard let relationship = current.relationship(named: component) else {
                throw unknownKey(component, in: current, keyPath: key, rootEntity: entity)
            }
            guard relationship.kind == .toOne else {
                throw throughToMany(key, relationship: relationship, of: current, rootEntity: entity)
            }
            if isLast { return Resolved(hops: hops, entity: current, target: .toOne(relationship)) }
            guard hops.count < maximumHops else {
                throw PersistError(.invalidPredicate, "The key path \(key) follows more than \(maximumHops) relationships",
                                   entity: entity.name, attribute: key)
            }
            let destination = try destination(of: relationship, from: current, rootEntity: entity)
            hops.append(Hop(entity: current, relationship: relationship, destination: destination))
            current = destination
        }
        throw unknownKey(key, in: entity, keyPath: key, rootEntity: entity)
    }

    /// The first to-many a key goes through or ends at (`tags` in `tags.name`), with the entity
    /// that has it; nil when the key names no to-many (or names nothing: ``resolve(_:in:)`` says
    /// what is wrong then).
    static func firstToMany(in key: String, of entity: EntityDescription) -> (EntityDescription, RelationshipDescription)? {
        var current = entity
        for component in key.split(separator: ".", omittingEmptySubsequences: false).prefix(maximumHops + 2) {
            guard let relationship = current.relationship(named: String(component)) else { return nil }
            if relationship.kind.isToMany { return (current, relationship) }
            guard let destination = current.destinationEntity(of: relationship) else { return nil }
            current = destination
        }
        return nil
    }

    /// A to-many's path resolved: the to-ones before it, and the to-many itself.
    struct Collection {
        let hops: [Hop]
        /// The to-many, from the entity the hops end at.
        let relationship: Hop
    }

    /// Resolves the path of a ``RelationshipPredicate``: to-ones, then one to-many.
    static func resolveCollection(_ path: String, in entity: EntityDescription) throws -> Collection {
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var hops: [Hop] = []
        var current = entity
        for (offset, component) in components.enumerated() {
            guard let relationship = current.relationship(named: component) else {
                throw unknownKey(component, in: current, keyPath: path, rootEntity: entity)
            }
            let destination = try destination(of: relationship, from: current, rootEntity: entity)
            let hop = Hop(entity: current, relationship: relationship, destination: destination)
            if offset == components.count - 1 {
                guard relationship.kind.isToMany else {
                    throw PersistError(.invalidPredicate,
                        "\(current.name).\(component) is a to-one relationship, not a to-many: ANY, ALL, NONE, @count and aggregates need a to-many (key path \(path))",
                        entity: entity.name, attribute: path)
                }
                return Collection(hops: hops, relationship: hop)
            }
            guard relationship.kind == .toOne else {
                throw throughToMany(path, relationship: relationship, of: current, rootEntity: entity)
            }
            guard hops.count < maximumHops else {
                throw PersistError(.invalidPredicate, "The key path \(path) follows more than \(maximumHops) relationships",
                                   entity: entity.name, attribute: path)
            }
            hops.append(hop)
            current = destination
        }
        throw unknownKey(path, in: entity, keyPath: path, rootEntity: entity)
    }

    static func destination(of relationship: RelationshipDescription, from entity: EntityDescription,
                            rootEntity: EntityDescription) throws -> EntityDescription {
        guard let destination = entity.destinationEntity(of: relationship) else {
            throw PersistError(.invalidPredicate,
                "\(entity.name).\(relationship.name) points at \(relationship.destinationEntityName), which is not an entity of the model",
                entity: rootEntity.name, attribute: relationship.name)
        }
        return destination
    }

    /// "Unknown key 'colour' in key path 'project.colour': Project has no attribute or
    /// relationship named colour; it has name, rank, owner, tasks".
    static func unknownKey(_ component: String, in entity: EntityDescription, keyPath: String,
                           rootEntity: EntityDescription) -> PersistError {
        let known = entity.attributeNames + entity.relationships.map(\.name)
        let context = component == keyPath ? "" : " in key path '\(keyPath)'"
        return PersistError(.invalidPredicate,
            "Unknown key '\(component)'\(context): \(entity.name) has no attribute or relationship named \(component); it has "
            + (known.isEmpty ? "none" : known.joined(separator: ", ")),
            entity: rootEntity.name, attribute: keyPath)
    }

    /// The error for a key path that goes through a to-many without saying how to combine its objects.
    static func throughToMany(_ keyPath: String, relationship: RelationshipDescription, of entity: EntityDescription,
                              rootEntity: EntityDescription) -> PersistError {
        let components = keyPath.split(separator: ".").map(String.init)
        let index = components.firstIndex(of: relationship.name) ?? 0
        let collection = components.prefix(index + 1).joined(separator: ".")
        let rest = components.dropFirst(index + 1).joined(separator: ".")
        let element = rest.isEmpty ? "$x" : "$x.\(rest)"
        return PersistError(.invalidPredicate,
            "The key path \(keyPath) goes through the to-many relationship \(entity.name).\(relationship.name), which holds many objects: "
            + "write ANY \(keyPath) (or ALL, NONE), \(collection).@count, or SUBQUERY(\(collection), $x, \(element) ...).@count",
            entity: rootEntity.name, attribute: keyPath)
    }
}
