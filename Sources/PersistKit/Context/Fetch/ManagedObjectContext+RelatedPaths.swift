/// Which objects a change to *related* objects concerns: a request that filters, sorts or
/// sections tasks by `project.name` must look at a project's tasks again when the project is
/// renamed, though the tasks themselves did not change.
extension ManagedObjectContext {
    /// A key path through relationships, resolved from `entity`: the relationships it follows,
    /// and what it reads last (an attribute, or a relationship read as a whole).
    struct RelationshipPath {
        /// The relationships from the source entity, in order.
        let hops: [RelationshipDescription]
        /// The entity of each hop's destination.
        let entities: [EntityDescription]
        /// The key read on the last destination (nil when the path ends at a relationship).
        let finalKey: String?
    }

    /// The paths through relationships a request's predicate and sorts read (a section key is
    /// the first sort's): the related objects whose changes may add, remove or move its objects.
    /// Empty when they read the objects' own attributes only.
    func relatedPaths(predicate: PredicateNode?, sorts: [ResolvedSort], entity: EntityDescription) throws -> [RelationshipPath] {
        var reads: [PredicateKey.RelatedRead] = []
        if let predicate, predicate.readsRelationships {
            reads = try predicate.normalized().relatedReads(in: entity)
        }
        for sort in sorts where !sort.hops.isEmpty {
            let key = sort.name.split(separator: ".").last.map(String.init) ?? sort.name
            reads.append(PredicateKey.RelatedRead(hops: sort.hops, key: key))
        }
        var seen = Set<[String]>()
        var paths: [RelationshipPath] = []
        for read in reads {
            let names = read.hops.map { $0.entity.name + "." + $0.relationship.name } + [read.key]
            guard seen.insert(names).inserted else { continue }
            paths.append(RelationshipPath(hops: read.hops.map(\.relationship),
                                          entities: read.hops.map { model.entity(named: $0.destination.name) ?? $0.destination },
                                          finalKey: read.key))
        }
        return paths
    }

    /// Resolves `keyPath` (`project.owner.name`) from `entity`; nil when it does not go through
    /// a relationship (a plain attribute), or names something the model lacks.
    func relationshipPath(_ keyPath: String, from entity: EntityDescription) -> RelationshipPath? {
        var hops: [RelationshipDescription] = []
        var entities: [EntityDescription] = []
        var current = entity
        var finalKey: String?
        for (index, component) in keyPath.split(separator: ".").map(String.init).enumerated() {
            if component.hasPrefix("@") { break }
            if let relationship = current.relationship(named: component), let next = destination(of: relationship) {
                hops.append(relationship)
                entities.append(next)
                current = next
            } else {
                guard index > 0 || current.attribute(named: component) == nil else { return nil }
                finalKey = component
                break
            }
        }
        return hops.isEmpty ? nil : RelationshipPath(hops: hops, entities: entities, finalKey: finalKey)
    }

    /// The objects of the paths' source entity that the notice's changes to related objects may
    /// concern: for each changed object along a path (an attribute the path reads, or the next
    /// relationship it follows, changed), the objects that reach it, found by walking the
    /// inverses back. Nil when a path has a relationship without an inverse (then only a
    /// refetch can tell).
    func sourcesAffected(by notice: ContextChanges, paths: [RelationshipPath]) -> [ManagedObject]? {
        guard !paths.isEmpty else { return [] }
        var affected: [ManagedObject] = []
        var seen = Set<ObjectIdentifier>()
        let changed: [(object: ManagedObject, keys: ChangedKeys?)] = notice.updated.map { ($0.object, $0.keys) }
            + (notice.inserted + notice.deleted).map { ($0, nil) }
        for path in paths {
            for (position, entity) in path.entities.enumerated() {
                // What this level reads: the next relationship, or the final key (nil: anything).
                let read = position + 1 < path.hops.count ? path.hops[position + 1].name : path.finalKey
                // A sub-entity's object is one of its parent's too.
                for (object, keys) in changed where object.entity === entity
                    || (object.entity.inheritance != nil && object.entity.isKind(of: entity.name)) {
                    if let read, let keys, !keys.contains(read) { continue }
                    guard let sources = walkBack(from: object, along: path, to: position) else { return nil }
                    for source in sources where seen.insert(ObjectIdentifier(source)).inserted { affected.append(source) }
                }
            }
        }
        return affected
    }

    /// The objects that reach `object` (the destination of hop `position`) along the path.
    private func walkBack(from object: ManagedObject, along path: RelationshipPath, to position: Int) -> [ManagedObject]? {
        var level = [object]
        for hop in path.hops[...position].reversed() {
            guard let inverseName = hop.inverseName else { return nil }
            var previous: [ManagedObject] = []
            var seen = Set<ObjectIdentifier>()
            for target in level where target.managedObjectContext === self {
                guard let inverse = target.entity.relationship(named: inverseName) else { return nil }
                for source in relatedObjects(of: target, inverse) where seen.insert(ObjectIdentifier(source)).inserted {
                    previous.append(source)
                }
            }
            level = previous
        }
        return level
    }
}
