import Synchronization

/// Key paths already read, by key path (which names its root type).
private let keyPathTargets = Mutex<[AnyKeyPathBox: KeyPathTarget]>([:])

extension KeyPathTarget {
    /// What `keyPath` (rooted at `entity`'s class) reads, or why it names nothing a predicate can use.
    static func resolve(_ keyPath: AnyKeyPath, valueType: Any.Type, entity: EntityDescription) -> Result<KeyPathTarget, PersistError> {
        let box = AnyKeyPathBox(keyPath: keyPath)
        if let known = keyPathTargets.withLock({ $0[box] }) { return .success(known) }
        let unknown = PersistError(.invalidPredicate,
            "The key path \(keyPath) of \(entity.objectClass) does not name an @Attribute or a @Relationship (or a path through to-one relationships to one)",
            entity: entity.name)
        guard entity.isClassBacked, let reading = KeyPathProbe.read(keyPath, rootClass: entity.objectClass) else { return .failure(unknown) }
        let result = target(of: reading, valueType: valueType, keyPath: keyPath, entity: entity, unknown: unknown)
        if case .success(let target) = result { keyPathTargets.withLock { $0[box] = target } }
        return result
    }

    private static func target(of reading: KeyPathProbe.Reading, valueType: Any.Type, keyPath: AnyKeyPath,
                               entity: EntityDescription, unknown: PersistError) -> Result<KeyPathTarget, PersistError> {
        var names: [String] = []
        for (offset, hop) in reading.hops.enumerated() {
            guard hop.relationship < hop.entity.relationships.count else { return .failure(unknown) }
            let relationship = hop.entity.relationships[hop.relationship]
            names.append(relationship.name)
            if relationship.kind.isToMany && offset < reading.hops.count - 1 {
                return .failure(PersistError(.invalidPredicate,
                    "The key path \(keyPath) goes through the to-many relationship \(hop.entity.name).\(relationship.name): "
                    + "use .any(\\.\(relationship.name), ...), .all or .none, or .count(\\.\(relationship.name))",
                    entity: entity.name, attribute: names.joined(separator: ".")))
            }
        }
        let path = names.joined(separator: ".")
        if let slot = reading.attributeSlot {
            guard slot < reading.finalEntity.attributes.count else { return .failure(unknown) }
            let attribute = reading.finalEntity.attributes[slot]
            if let last = reading.hops.last, last.entity.relationships[last.relationship].kind.isToMany {
                return .failure(PersistError(.invalidPredicate,
                    "The key path \(keyPath) reads \(attribute.name) of a to-many's objects: use .any(\\.\(path), \\.\(attribute.name) == ...)",
                    entity: entity.name, attribute: path))
            }
            guard slot < reading.finalEntity.valueTypes.count, let declared = reading.finalEntity.valueTypes[slot],
                  valueType == declared || valueType == optional(of: declared) else { return .failure(unknown) }
            return .success(.attribute(key: path.isEmpty ? attribute.name : path + "." + attribute.name, attribute))
        }
        guard let last = reading.hops.last else { return .failure(unknown) }
        let relationship = last.entity.relationships[last.relationship]
        if relationship.kind == .toOne { return .success(.toOne(key: path, relationship)) }
        if valueType == Int.self, reading.value as? Int == KeyPathProbe.toManyProbeCount { return .success(.count(path: path)) }
        return .success(.toMany(path: path, relationship))
    }

    private static func optional<T>(of _: T.Type) -> Any.Type { T?.self }
}

extension FetchPredicate {
    /// What `keyPath` reads, or why it names nothing a predicate can use.
    static func keyTarget(_ keyPath: AnyKeyPath, valueType: Any.Type) -> Result<KeyPathTarget, PersistError> {
        guard let entity = defaultEntity() else {
            return .failure(PersistError(.invalidPredicate, "\(Root.self) is not an entity class: key paths need one"))
        }
        return KeyPathTarget.resolve(keyPath, valueType: valueType, entity: entity)
    }

    /// The key (`due`, `project.name`) and attribute a key path reads.
    static func attributeKey<Value>(_ keyPath: KeyPath<Root, Value>) -> Result<(key: String, attribute: AttributeDescription), PersistError> {
        let direct = attributeName(keyPath)
        if case .success(let attribute) = direct { return .success((attribute.name, attribute)) }
        guard let entity = defaultEntity(), !entity.relationships.isEmpty else {
            return direct.map { ($0.name, $0) }
        }
        switch keyTarget(keyPath, valueType: Value.self) {
        case .success(.attribute(let key, let attribute)):
            return .success((key, attribute))
        case .success(.toOne(let key, let relationship)):
            return .failure(PersistError(.invalidPredicate,
                "\(key) is a relationship to \(relationship.destinationEntityName): compare it with an object, or read one of its attributes (\\.\(key)?.name)",
                entity: entity.name, attribute: key))
        case .success(.toMany(let path, _)), .success(.count(let path)):
            return .failure(PersistError(.invalidPredicate,
                "\(path) is a to-many relationship: use .any(\\.\(path), ...), .all, .none or .count(\\.\(path))",
                entity: entity.name, attribute: path))
        case .failure(let error):
            return .failure(error)
        }
    }
}
