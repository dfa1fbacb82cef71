/// Resolves every entity's declared relationships against a model: destinations, inverses
/// (named on one side, found from it on the other), counts, and where each is stored.
///
/// Every rule a model must follow is checked here, once, so that nothing later can meet a
/// relationship without a destination or with an inverse that does not point back.
enum RelationshipResolver {
    /// The entities with their relationships resolved (entities without any come back as given).
    static func resolve(_ entities: [EntityDescription]) throws -> [EntityDescription] {
        guard entities.contains(where: { !$0.declaredRelationships.isEmpty }) else { return entities }
        var byName: [String: EntityDescription] = [:]
        for entity in entities { byName[entity.name] = entity }
        let inverses = try inverseNames(entities, byName)
        func isOrderedInverse(_ index: Int, of entity: EntityDescription) -> Bool {
            let declaration = entity.declaredRelationships[index]
            guard declaration.kind == .toOne, let inverse = inverses[entity.name]?[index],
                  let destination = byName[declaration.destinationName] else { return false }
            return destination.declaredRelationships.first(where: { $0.name == inverse })?.kind == .orderedToMany
        }
        let trees = try TreeRelationshipColumns.place(entities, byName: byName, isOrderedInverse: isOrderedInverse)
        // Positions: a to-one whose inverse is ordered keeps its object's place in a column.
        var positionSlots: [String: [Int: Int]] = [:]
        for entity in entities {
            var next = entity.attributes.count + entity.declaredRelationships.filter { $0.kind == .toOne }.count
            for (index, declaration) in entity.declaredRelationships.enumerated() where isOrderedInverse(index, of: entity) {
                if let tree = trees[entity.tableName] {
                    positionSlots[entity.name, default: [:]][index] = tree.slot(of: StoredColumn.positionColumnName(for: declaration.name))
                } else {
                    positionSlots[entity.name, default: [:]][index] = next
                    next += 1
                }
            }
        }
        return try entities.map { entity in
            let tree = trees[entity.tableName]
            guard !entity.declaredRelationships.isEmpty || positionSlots[entity.name] != nil || tree != nil else { return entity }
            let relationships = try entity.declaredRelationships.enumerated().map { index, declaration in
                try describe(declaration, index: index, of: entity, inverse: inverses[entity.name]?[index],
                             byName: byName, positionSlots: positionSlots, trees: trees)
            }
            return entity.resolving(relationships, inheritance: tree.flatMap { entity.inheritance?.withRelationshipColumns($0.columns) })
        }
    }

    /// The entity that declares an entity's `index`th relationship: the entity itself, or the
    /// ancestor it inherits the relationship from (a sub-entity's relationships start with its
    /// parent's).
    static func declaringEntity(of index: Int, in entity: EntityDescription, byName: [String: EntityDescription]) -> EntityDescription {
        var current = entity
        while let parentName = current.superentityName, let parent = byName[parentName], index < parent.declaredRelationships.count {
            current = parent
        }
        return current
    }

    /// Each relationship's inverse name (nil for one-way ones), checked both ways.
    private static func inverseNames(_ entities: [EntityDescription],
                                     _ byName: [String: EntityDescription]) throws -> [String: [Int: String]] {
        var named: [String: [Int: String]] = [:]
        var oneWay = Set<String>()
        for entity in entities {
            for (index, declaration) in entity.declaredRelationships.enumerated() {
                let what = "\(entity.name).\(declaration.name)"
                guard let destination = byName[declaration.destinationName] else {
                    throw invalid("\(what) points at \(declaration.destinationName), which is not an entity of the model", entity, declaration)
                }
                if case .objectClass(let objectClass) = declaration.destination, destination.objectClass != objectClass {
                    throw invalid("\(what) points at \(objectClass), but the model's \(destination.name) entity is \(destination.objectClass)",
                                  entity, declaration)
                }
                try checkCounts(declaration, of: entity)
                switch declaration.inverse {
                case .unspecified: break
                case .none: oneWay.insert(what)
                case .name(let name): named[entity.name, default: [:]][index] = name
                case .keyPath(let keyPath):
                    guard let found = destination.relationshipIndex(forKeyPath: keyPath) else {
                        throw invalid("The inverse of \(what) is not a @Relationship of \(destination.name)", entity, declaration)
                    }
                    named[entity.name, default: [:]][index] = destination.declaredRelationships[found].name
                }
            }
        }
        // Pair the named ones: the inverse must exist, point back, and agree. A relationship a
        // sub-entity inherits is paired where it is declared, and takes that entity's inverse.
        var result = named
        for entity in entities {
            for (index, declaration) in entity.declaredRelationships.enumerated() {
                guard declaringEntity(of: index, in: entity, byName: byName) === entity,
                      let inverseName = named[entity.name]?[index] else { continue }
                let what = "\(entity.name).\(declaration.name)"
                guard let destination = byName[declaration.destinationName],
                      let inverseIndex = destination.declaredRelationships.firstIndex(where: { $0.name == inverseName }) else {
                    throw invalid("The inverse of \(what), \(declaration.destinationName).\(inverseName), is not a relationship", entity, declaration)
                }
                let inverse = destination.declaredRelationships[inverseIndex]
                let inverseOwner = declaringEntity(of: inverseIndex, in: destination, byName: byName)
                if inverseOwner !== destination {
                    throw invalid("The inverse of \(what), \(destination.name).\(inverseName), is declared by \(inverseOwner.name), whose objects "
                                  + "are not all \(destination.name)s: make \(what) point at \(inverseOwner.name)", entity, declaration)
                }
                if destination === entity && inverseIndex == index {
                    throw invalid("\(what) cannot be its own inverse", entity, declaration)
                }
                guard inverse.destinationName == entity.name else {
                    throw invalid("The inverse of \(what), \(destination.name).\(inverseName), points at \(inverse.destinationName), not \(entity.name)",
                                  entity, declaration)
                }
                if oneWay.contains("\(destination.name).\(inverseName)") {
                    throw invalid("\(what) names \(destination.name).\(inverseName) as its inverse, which says inverse: .none", entity, declaration)
                }
                if let back = named[destination.name]?[inverseIndex], back != declaration.name {
                    throw invalid("\(what) and \(destination.name).\(inverseName) disagree: the inverse of \(destination.name).\(inverseName) is \(back)",
                                  entity, declaration)
                }
                if inverse.kind == .orderedToMany && declaration.kind == .orderedToMany {
                    throw invalid("\(what) and its inverse are both ordered: only one side of a many-to-many can keep an order",
                                  entity, declaration)
                }
                result[destination.name, default: [:]][inverseIndex] = declaration.name
            }
        }
        for entity in entities {
            for index in entity.declaredRelationships.indices {
                let owner = declaringEntity(of: index, in: entity, byName: byName)
                if owner !== entity { result[entity.name, default: [:]][index] = result[owner.name]?[index] }
            }
        }
        for entity in entities {
            for (index, declaration) in entity.declaredRelationships.enumerated() where result[entity.name]?[index] == nil {
                let what = "\(entity.name).\(declaration.name)"
                guard oneWay.contains(what) else {
                    throw invalid("\(what) has no inverse: name it (inverse: \\\(declaration.destinationName).someRelationship) on one side, or declare inverse: .none",
                                  entity, declaration)
                }
                if declaration.kind == .toOne && (declaration.minimumCount ?? 0) > 0 {
                    throw invalid("\(what) is a required to-one without an inverse: deleting its destination would leave it dangling; give it an inverse",
                                  entity, declaration)
                }
            }
        }
        return result
    }

    private static func checkCounts(_ declaration: RelationshipDeclaration, of entity: EntityDescription) throws {
        let what = "\(entity.name).\(declaration.name)"
        if let minimum = declaration.minimumCount, minimum < 0 {
            throw invalid("\(what) has a negative minimum count (\(minimum))", entity, declaration)
        }
        if let maximum = declaration.maximumCount, maximum < 0 {
            throw invalid("\(what) has a negative maximum count (\(maximum))", entity, declaration)
        }
        if let minimum = declaration.minimumCount, let maximum = declaration.maximumCount, minimum > maximum {
            throw invalid("\(what) has a minimum count (\(minimum)) above its maximum (\(maximum))", entity, declaration)
        }
        if declaration.kind == .toOne, (declaration.minimumCount ?? 0) > 1 || declaration.maximumCount.map({ $0 < 1 }) == true {
            throw invalid("\(what) is a to-one: its counts can only be 0 or 1", entity, declaration)
        }
    }

    /// One relationship, resolved: its inverse and storage.
    private static func describe(_ declaration: RelationshipDeclaration, index: Int, of entity: EntityDescription,
                                 inverse inverseName: String?, byName: [String: EntityDescription],
                                 positionSlots: [String: [Int: Int]],
                                 trees: [String: TreeRelationshipColumns]) throws -> RelationshipDescription {
        let destination = byName[declaration.destinationName]
        let inverseIndex = inverseName.flatMap { name in destination?.declaredRelationships.firstIndex { $0.name == name } }
        let inverse = inverseIndex.flatMap { destination?.declaredRelationships[$0] }
        let storage: RelationshipStorage
        if declaration.kind == .toOne {
            storage = .foreignKey(slot: foreignKeySlot(of: index, in: entity, trees: trees), positionSlot: positionSlots[entity.name]?[index])
        } else if let destination, let inverseIndex, inverse?.kind == .toOne {
            storage = .inverseForeignKey(inverse: inverseIndex, slot: foreignKeySlot(of: inverseIndex, in: destination, trees: trees),
                                         positionSlot: declaration.kind == .orderedToMany ? positionSlots[destination.name]?[inverseIndex] : nil)
        } else {
            // A many-to-many is owned by its ordered side, else by the first by name; a one-way
            // to-many by itself. Named after the entity that declares it: a tree shares one table.
            let declaring = declaringEntity(of: index, in: entity, byName: byName).name
            var isOwner = true
            if let inverse {
                if inverse.kind == .orderedToMany {
                    isOwner = false
                } else if declaration.kind != .orderedToMany {
                    isOwner = (declaring, declaration.name) < (declaration.destinationName, inverse.name)
                }
            }
            let owner = isOwner ? (declaring, declaration.name) : (declaration.destinationName, inverse?.name ?? "")
            let ordered = isOwner ? declaration.kind == .orderedToMany : inverse?.kind == .orderedToMany
            let ownerTable = isOwner ? entity.tableName : destination?.tableName ?? owner.0
            let destinationTable = isOwner ? destination?.tableName ?? declaration.destinationName : entity.tableName
            storage = .joinTable(JoinTable(name: "_persistkit_join_\(owner.0)_\(owner.1)", ownerEntity: owner.0,
                                           destinationEntity: isOwner ? declaration.destinationName : declaring,
                                           ownerTable: ownerTable, destinationTable: destinationTable,
                                           isOrdered: ordered), isOwner: isOwner)
        }
        return RelationshipDescription(name: declaration.name, destinationEntityName: declaration.destinationName,
                                       kind: declaration.kind, inverseName: inverseName, deleteRule: declaration.deleteRule,
                                       minimumCount: declaration.minimumCount, maximumCount: declaration.maximumCount,
                                       index: index, storage: storage, originalName: declaration.originalName,
                                       inverseIndex: inverseIndex, destinationTableName: destination?.tableName)
    }

    /// The slot of the `index`th relationship's foreign key: after the attributes, in the order
    /// of the entity's to-ones; in an inheritance tree, its column's slot in the tree's table.
    private static func foreignKeySlot(of index: Int, in entity: EntityDescription, trees: [String: TreeRelationshipColumns]) -> Int {
        if let tree = trees[entity.tableName] { return tree.slot(of: entity.declaredRelationships[index].name) }
        return entity.attributes.count + entity.declaredRelationships[..<index].filter { $0.kind == .toOne }.count
    }

    private static func invalid(_ message: String, _ entity: EntityDescription, _ declaration: RelationshipDeclaration) -> PersistError {
        PersistError(.invalidModel, message, entity: entity.name, attribute: declaration.name)
    }
}
