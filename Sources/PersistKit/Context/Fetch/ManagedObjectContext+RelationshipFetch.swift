/// Fetches whose predicate or sort reads through relationships: the store answers for saved
/// objects by their saved related objects, so a saved object whose related objects have unsaved
/// changes here (a renamed project, a relinked or deleted task, an unsaved insert in a
/// to-many) is judged in memory instead, like the context's own changed objects.
///
/// Which objects: walking each chain of relationships the fetch reads backwards from its end,
/// the objects of each entity on the way that have pending changes, or that reach such an
/// object (through saved links, found with one indexed query per step, or through unsaved
/// links, found in memory). Nothing is read when no entity on the chains has pending changes.
extension ManagedObjectContext {
    /// The objects a fetch judges in memory: the entity's pending objects, and the saved ones
    /// affected by pending changes of the objects they read through relationships.
    func pendingObjects(for plan: FetchPlan) throws -> PendingObjects {
        var pending = pendingObjects(of: plan.entity)
        guard !plan.relationshipChains.isEmpty, registry.hasInserts || !changeTracker.isEmpty else { return pending }
        var references = PendingReferences(context: self)
        var keys = Set<Int64>()
        for chain in plan.relationshipChains {
            keys.formUnion(try affectedKeys(chain, references: &references))
        }
        for object in pending.changedOrDeleted { keys.remove(object.identityKey) }
        guard !keys.isEmpty else { return pending }
        pending.changedOrDeleted += try readObjects(entity: plan.entity, keys: keys.sorted()).filter { !$0.deletedFlag }
        return pending
    }

    /// Keys of the chain's first entity whose objects reach, through the chain, an object with
    /// pending changes (their own pending objects are not included: the fetch has them).
    private func affectedKeys(_ chain: [PredicateKey.Hop], references: inout PendingReferences) throws -> Set<Int64> {
        guard let last = chain.last else { return [] }
        var dirty = references.of(last.destination)
        for (offset, hop) in chain.enumerated().reversed() {
            var reached = dirty.isEmpty ? [] : try reach(hop, from: dirty, references: &references)
            if offset > 0 { reached.formUnion(references.of(hop.entity)) }
            dirty = reached
        }
        return dirty.filter { $0 > 0 }
    }

    /// The objects of `hop.entity` whose relationship holds one of `targets` (references of
    /// `hop.destination`), as saved or as changed here.
    private func reach(_ hop: PredicateKey.Hop, from targets: Set<Int64>, references: inout PendingReferences) throws -> Set<Int64> {
        let saved = targets.filter { $0 > 0 }.sorted()
        switch hop.relationship.storage {
        case .foreignKey(let slot, _):
            // Objects whose foreign key changed here are pending objects of hop.entity already.
            return Set(try store.references(in: hop.entity, slot: slot, positionSlot: nil, owners: saved).map(\.key))
        case .inverseForeignKey(_, let slot, _):
            var result = Set(try store.foreignKeys(in: hop.destination, slot: slot, keys: saved))
            for object in references.objects(of: hop.destination) where targets.contains(object.storageReference) {
                if slot < object.storage.count, case .integer(let owner) = object.storage[slot] { result.insert(owner) }
            }
            return result
        case .joinTable(let table, isOwner: true):
            // Owners whose lists changed here are pending objects of hop.entity already.
            return Set(try store.inverseLinks(in: table, destinations: saved).map(\.key))
        case .joinTable(let table, isOwner: false):
            var result = Set(try store.links(in: table, owners: saved).map(\.key))
            guard let inverse = hop.relationship.inverseName.flatMap(hop.destination.relationship(named:)) else { return result }
            for object in references.objects(of: hop.destination) where !object.deletedFlag && targets.contains(object.storageReference) {
                if let contents = toManyContents(of: object, relationship: inverse.index) { result.formUnion(contents.references) }
            }
            return result
        case .unresolved:
            return []
        }
    }

    /// Each entity's pending objects and their references, gathered once per fetch.
    private struct PendingReferences {
        let context: ManagedObjectContext
        private var objectsByEntity: [ObjectIdentifier: [ManagedObject]] = [:]

        init(context: ManagedObjectContext) {
            self.context = context
        }

        mutating func objects(of entity: EntityDescription) -> [ManagedObject] {
            if let objects = objectsByEntity[ObjectIdentifier(entity)] { return objects }
            // A relationship to a parent holds its sub-entities' objects: theirs count too.
            let entities = entity.readsSubentities ? (entity.inheritance?.concreteEntityNames ?? []).compactMap(context.model.entity(named:))
                : [entity]
            var objects: [ManagedObject] = []
            for entity in entities {
                let pending = context.pendingObjects(of: entity)
                objects += pending.inserted + pending.changedOrDeleted
            }
            objectsByEntity[ObjectIdentifier(entity)] = objects
            return objects
        }

        mutating func of(_ entity: EntityDescription) -> Set<Int64> {
            Set(objects(of: entity).map(\.storageReference))
        }
    }
}
