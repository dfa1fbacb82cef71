import Synchronization

/// Key paths already read, by key path (which names its root type).
private let keyPathTargets = Mutex<[AnyKeyPathBox: KeyPathTarget]>([:])

extension KeyPathTarget {
    /// What `keyPath` (rooted at `entity`'s class) reads, or why it names nothing a predicate can use.
    ///
    /// The key path is read on probes (see ``KeyPathProbe``), then checked to be what it seems:
    /// a computed property that reads an attribute (`var shout: String { title.uppercased() }`)
    /// looks like that attribute on one reading, so an attribute is read again with each of
    /// its probe values and must come back unchanged, a to-many's count must follow the number
    /// of objects, and a relationship read directly must be its `@Relationship`'s own key path.
    static func resolve(_ keyPath: AnyKeyPath, valueType: Any.Type, entity: EntityDescription) -> Result<KeyPathTarget, PersistError> {
        let box = AnyKeyPathBox(keyPath: keyPath)
        if let known = keyPathTargets.withLock({ $0[box] }) { return .success(known) }
        guard entity.isClassBacked, let reading = KeyPathProbe.read(keyPath, rootClass: entity.objectClass) else {
            return .failure(computed(keyPath, entity: entity, reads: nil))
        }
        let result = target(of: reading, valueType: valueType, keyPath: keyPath, entity: entity).flatMap { target in
            verify(target, of: keyPath, reading: reading, entity: entity) ? .success(target)
                : .failure(refused(target, keyPath, reading: reading, entity: entity))
        }
        if case .success(let target) = result { keyPathTargets.withLock { $0[box] = target } }
        return result
    }

    /// The error for a key path that is not a stored property, or a path of them.
    private static func computed(_ keyPath: AnyKeyPath, entity: EntityDescription, reads: String?) -> PersistError {
        let printed = KeyPathDescription.of(keyPath, entity: entity)
        let subject = printed.hasPrefix("a computed property") ? "The key path" : printed
        return PersistError(.invalidPredicate,
            "\(subject) is a computed property of \(entity.objectClass), not an @Attribute or a @Relationship (or a path through "
            + "to-one relationships to one)" + (reads.map { ": it reads \($0) and returns something of its own" } ?? "")
            + "; predicates, sorts and section keys can only use what the store holds",
            entity: entity.name)
    }

    /// The error for a key path that read like `target` but is not it: a computed property, or
    /// a key path that goes on past a to-many (`\.tags.isEmpty`), which says what to write.
    private static func refused(_ target: KeyPathTarget, _ keyPath: AnyKeyPath, reading: KeyPathProbe.Reading,
                                entity: EntityDescription) -> PersistError {
        switch target {
        case .toMany(let path, _), .count(let path):
            let printed = KeyPathDescription.of(keyPath, entity: entity)
            let subject = printed.hasPrefix("a computed property") ? "The key path" : printed
            return PersistError(.invalidPredicate,
                "\(subject) reads the relationship \(path) of \(entity.objectClass) and returns something of its own; \(path) is a "
                + "to-many relationship: use .any(\\.\(path), ...), .all, .none or .count(\\.\(path))",
                entity: entity.name, attribute: path)
        case .attribute, .toOne:
            return computed(keyPath, entity: entity, reads: path(of: reading))
        }
    }

    /// The relationships and attribute a reading went through (`author.name`), if any.
    private static func path(of reading: KeyPathProbe.Reading) -> String? {
        var names = reading.hops.compactMap { hop in
            hop.relationship < hop.entity.relationships.count ? hop.entity.relationships[hop.relationship].name : nil
        }
        if let slot = reading.attributeSlot, slot < reading.finalEntity.attributes.count {
            names.append(reading.finalEntity.attributes[slot].name)
        }
        return names.isEmpty ? nil : names.joined(separator: ".")
    }

    private static func target(of reading: KeyPathProbe.Reading, valueType: Any.Type, keyPath: AnyKeyPath,
                               entity: EntityDescription) -> Result<KeyPathTarget, PersistError> {
        let unknown = computed(keyPath, entity: entity, reads: path(of: reading))
        var names: [String] = []
        for (offset, hop) in reading.hops.enumerated() {
            guard hop.relationship < hop.entity.relationships.count else { return .failure(unknown) }
            let relationship = hop.entity.relationships[hop.relationship]
            names.append(relationship.name)
            if relationship.kind.isToMany && offset < reading.hops.count - 1 {
                return .failure(PersistError(.invalidPredicate,
                    "The key path \(KeyPathDescription.of(keyPath, entity: entity, knownPath: path(of: reading))) goes through the "
                    + "to-many relationship \(hop.entity.name).\(relationship.name): "
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
                    "The key path \(KeyPathDescription.of(keyPath, entity: entity, knownPath: path + "." + attribute.name)) reads "
                    + "\(attribute.name) of a to-many's objects: use .any(\\.\(path), \\.\(attribute.name) == ...)",
                    entity: entity.name, attribute: path))
            }
            // Through to-ones, a key path is an optional chain (`\.project?.name`): its value is
            // optional even when the attribute is not.
            guard slot < reading.finalEntity.valueTypes.count, let declared = reading.finalEntity.valueTypes[slot],
                  valueType == (reading.hops.isEmpty || declared.isOptionalAttribute ? declared : optional(of: declared)) else {
                return .failure(unknown)
            }
            return .success(.attribute(key: path.isEmpty ? attribute.name : path + "." + attribute.name, attribute))
        }
        guard let last = reading.hops.last else { return .failure(unknown) }
        let relationship = last.entity.relationships[last.relationship]
        if relationship.kind == .toOne { return .success(.toOne(key: path, relationship)) }
        if valueType == Int.self, reading.value as? Int == KeyPathProbe.Round().toManyCount { return .success(.count(path: path)) }
        return .success(.toMany(path: path, relationship))
    }

    /// Whether `keyPath` reads what `target` says on every probe value, not just the first
    /// reading's.
    private static func verify(_ target: KeyPathTarget, of keyPath: AnyKeyPath, reading: KeyPathProbe.Reading,
                               entity: EntityDescription) -> Bool {
        let objectClass = entity.objectClass
        guard beginsWithHops(keyPath, reading.hopKeyPaths) else { return false }
        switch target {
        case .attribute:
            guard let slot = reading.attributeSlot, slot < reading.finalEntity.valueTypes.count,
                  let declared = reading.finalEntity.valueTypes[slot] else { return false }
            let final = reading.finalEntity
            // Where Swift can name the property (its symbols are exported), it must be the attribute.
            if let last = components(of: keyPath)?.split(separator: ".").last?.filter({ $0 != "?" && $0 != "!" }),
               !last.contains("<"), last != final.attributes[slot].name {
                return false
            }
            return KeyPathProbe.probeValues(for: final.attributes[slot], valueType: declared, initial: final.initialStorage[slot])
                .allSatisfy { value in
                    guard let again = KeyPathProbe.read(keyPath, rootClass: objectClass,
                                                        round: KeyPathProbe.Round(value: (final, slot, value))) else { return false }
                    return sameHops(again, reading) && again.attributeSlot == slot && again.finalEntity === final
                        && KeyPathProbe.value(again.value, isStored: value, as: declared)
                }
        case .toOne, .toMany:
            // One hop: the key path must be the relationship's own. More: the last hop's objects.
            if reading.hops.count == 1 { return reading.hopKeyPaths.first == keyPath }
            let returned = ((reading.value as? OptionalProtocol)?.wrappedAny ?? reading.value) as? any RelationshipValue
            guard let objects = returned?.relatedObjects, objects.count == reading.destinations.count else { return false }
            return zip(objects, reading.destinations).allSatisfy { $0 === $1 }
                || Set(objects.map(ObjectIdentifier.init)) == Set(reading.destinations.map(ObjectIdentifier.init))
        case .count:
            return [0, 1, 2, 5].allSatisfy { count in
                guard let again = KeyPathProbe.read(keyPath, rootClass: objectClass, round: KeyPathProbe.Round(toManyCount: count)) else {
                    return false
                }
                return sameHops(again, reading) && again.attributeSlot == nil && again.value as? Int == count
            }
        }
    }

    /// Whether `keyPath`, as Swift prints it, goes through the relationships' own key paths
    /// one after the other (`\Book.author?.name` begins with `\Book.author`), where a computed
    /// property reading them (`var authorName: String? { author?.name }`) is one property of its
    /// own. True when the printed forms are not what this expects: the values decide then.
    private static func beginsWithHops(_ keyPath: AnyKeyPath, _ hopKeyPaths: [AnyKeyPath]) -> Bool {
        guard !hopKeyPaths.isEmpty, var rest = components(of: keyPath) else { return true }
        for hop in hopKeyPaths {
            guard let component = components(of: hop) else { return true }
            guard rest.hasPrefix(component) else { return false }
            rest = rest.dropFirst(component.count)
            // The relationship's property ends there: `\Book.author` is not `\Book.authorName`.
            guard rest.isEmpty || "?!.".contains(rest[rest.startIndex]) else { return false }
            if rest.hasPrefix("?") || rest.hasPrefix("!") { rest = rest.dropFirst() }
        }
        return true
    }

    /// A key path as Swift prints it, without its root type (`.author?.name`).
    private static func components(of keyPath: AnyKeyPath) -> Substring? {
        let printed = String(reflecting: keyPath)
        let root = "\\" + String(describing: type(of: keyPath).rootType)
        return printed.hasPrefix(root) ? printed.dropFirst(root.count) : nil
    }

    private static func sameHops(_ a: KeyPathProbe.Reading, _ b: KeyPathProbe.Reading) -> Bool {
        a.hops.count == b.hops.count && zip(a.hops, b.hops).allSatisfy { $0.entity === $1.entity && $0.relationship == $1.relationship }
    }

    private static func optional<T>(of _: T.Type) -> Any.Type { T?.self }
}

extension FetchPredicate {
    /// How an error names `keyPath`: never by address (see ``KeyPathDescription``).
    static func describe(_ keyPath: AnyKeyPath) -> String {
        guard let entity = defaultEntity() else { return KeyPathDescription.of(keyPath, root: Root.self) }
        return KeyPathDescription.of(keyPath, entity: entity)
    }

    /// What `keyPath` reads, or why it names nothing a predicate can use.
    static func keyTarget(_ keyPath: AnyKeyPath, valueType: Any.Type) -> Result<KeyPathTarget, PersistError> {
        guard let entity = defaultEntity() else {
            return .failure(PersistError(.invalidPredicate, "\(Root.self) is not an entity class: key paths need one"))
        }
        return KeyPathTarget.resolve(keyPath, valueType: valueType, entity: entity)
    }

    /// The key (`due`, `project.name`) and attribute a key path reads.
    static func attributeKey<Value>(_ keyPath: KeyPath<Root, Value>) -> Result<(key: String, attribute: AttributeDescription), PersistError> {
        guard let entity = defaultEntity() else {
            return .failure(PersistError(.invalidPredicate, "\(Root.self) is not an entity class: key paths need one"))
        }
        switch KeyPathTarget.resolve(keyPath, valueType: Value.self, entity: entity) {
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
