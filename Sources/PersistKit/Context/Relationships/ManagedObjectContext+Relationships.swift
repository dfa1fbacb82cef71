/// Reading relationships: references (a primary key, or an unsaved object's temporary key
/// negated) resolved to this context's objects, and to-manys loaded or derived from the side
/// that owns them.
extension ManagedObjectContext {
    /// Reads the stored rows that refer to some objects (given by key), as the store's
    /// `references`, `links` and `inverseLinks` do.
    typealias StoredReferences = (_ keys: [Int64]) throws -> [SQLiteStore.Reference]

    /// How `object` is referred to from storage: its key, or its temporary key negated.
    @inline(__always)
    func reference(to object: ManagedObject) -> Int64 {
        object.hasTemporaryKey ? -object.identityKey : object.identityKey
    }

    /// The destination entity of a relationship in this context's model.
    func destination(of relationship: RelationshipDescription) -> EntityDescription? {
        // Asked once per link changed: comparing a few entities' names (the same string, in
        // one model, compares at once) costs less than hashing the name for the model's table.
        let entities = model.entities
        guard entities.count <= 8 else { return model.entity(named: relationship.destinationEntityName) }
        let name = relationship.destinationEntityName
        return entities.first { $0.name == name }
    }

    /// This context's object for a reference: an unsaved insert, a registered object, or one
    /// read now (a fault fired). Nil when there is none.
    func resolve(_ reference: Int64, in entity: EntityDescription) -> ManagedObject? {
        if reference < 0 {
            guard let object = registry.insertedObject(temporaryKey: -reference) else { return nil }
            return object
        }
        if let object = registry.object(of: entity, key: reference) { return object }
        if entity.readsSubentities { return resolve([reference], in: entity).first }
        return (try? readObjects(entity: entity, keys: [reference]))?.first
    }

    /// The objects for references, in order, reading the missing ones in one query.
    func resolve(_ references: [Int64], in entity: EntityDescription) -> [ManagedObject] {
        if entity.readsSubentities { return resolveWithSubentities(references, in: entity) }
        let held = registry.held(entity)
        let missing = references.filter { $0 > 0 && held?.byKey[$0] == nil }
        var read: [Int64: ManagedObject] = [:]
        if !missing.isEmpty {
            let objects = entityObjects(entity)
            try? store.read(entity, keyList: missing) { key, version, decode in
                read[key] = try materialize(key: key, version: version, decode, entity: entity, objects: objects)
            }
        }
        return references.compactMap { reference in
            if reference < 0 { return registry.insertedObject(temporaryKey: -reference) }
            return read[reference] ?? held?.byKey[reference] ?? registry.object(of: entity, key: reference)
        }
    }

    /// ``resolve(_:in:)-([Int64],_)`` for a relationship to an entity with sub-entities: a key
    /// may be a row of any of them (a tree's entities share their keys), and its object is
    /// always of the row's own entity, registered under it from the start. The registered ones
    /// are found by entity; the others are read with one query per entity of the subtree, each
    /// of which finds only its own rows.
    private func resolveWithSubentities(_ references: [Int64], in entity: EntityDescription) -> [ManagedObject] {
        let concrete = (entity.inheritance?.concreteEntityNames ?? []).compactMap(model.entity(named:))
        var found: [Int64: ManagedObject] = [:]
        var missing: [Int64] = []
        for reference in references where reference > 0 && found[reference] == nil {
            if let object = concrete.lazy.compactMap({ self.registry.object(of: $0, key: reference) }).first {
                found[reference] = object
            } else {
                missing.append(reference)
            }
        }
        for candidate in concrete where !missing.isEmpty {
            let objects = entityObjects(candidate)
            try? store.read(candidate, keyList: missing) { key, version, decode in
                found[key] = try materialize(key: key, version: version, decode, entity: candidate, objects: objects)
            }
            missing.removeAll { found[$0] != nil }
        }
        return references.compactMap { reference in
            reference < 0 ? registry.insertedObject(temporaryKey: -reference) : found[reference]
        }
    }

    // MARK: Deleted objects

    /// Whether `relationship` still shows the deleted objects it held: when the inverse they
    /// were deleted through is `.deny`, which changes neither side until the deletion is saved
    /// or rolled back (a deleted object's own relationships show what they held, whatever the
    /// rule: the rules change the other side).
    func showsDeleted(through relationship: RelationshipDescription, in destination: EntityDescription) -> Bool {
        relationship.inverse(in: destination)?.deleteRule == .deny
    }

    // MARK: To-one

    /// The object a to-one holds; a deleted one reads as nil, unless its deletion is denied
    /// through this link (see ``showsDeleted(through:in:)``).
    func toOneObject(of object: ManagedObject, relationship index: Int) -> ManagedObject? {
        let relationships = object.entity.relationships
        guard index < relationships.count, case .foreignKey(let slot, _) = relationships[index].storage,
              case .integer(let reference) = object.storage[slot] else {
            return nil
        }
        if let cached = object.related?.toOne[index], cached.reference == reference,
           cached.object.managedObjectContext === self, !cached.object.deletedFlag {
            return cached.object
        }
        guard let entity = destination(of: relationships[index]), let target = resolve(reference, in: entity),
              !target.deletedFlag || showsDeleted(through: relationships[index], in: entity) else {
            return nil
        }
        if object.related == nil { object.related = RelatedObjects() }
        object.related?.toOne[index] = (reference, target)
        return target
    }

    // MARK: To-many

    /// The objects a to-many holds, in order for an ordered one (deleted ones left out, unless
    /// their deletion is denied through this link).
    func toManyObjects(of object: ManagedObject, relationship index: Int) -> [ManagedObject] {
        guard index < object.entity.relationships.count, let contents = toManyContents(of: object, relationship: index),
              let entity = destination(of: object.entity.relationships[index]) else { return [] }
        if let objects = contents.objects, objects.count == contents.references.count,
           contents.checkedGeneration == graph.generation
            || objects.allSatisfy({ $0.managedObjectContext === self && !$0.deletedFlag }) {
            contents.checkedGeneration = graph.generation
            return objects
        }
        let showsDeleted = showsDeleted(through: object.entity.relationships[index], in: entity)
        let objects = resolve(contents.references, in: entity).filter { !$0.deletedFlag || showsDeleted }
        contents.objects = objects
        if objects.count == contents.references.count { contents.checkedGeneration = graph.generation }
        return objects
    }

    /// A to-many's references: the owning side's list (loaded once), or the derived side's,
    /// computed again whenever the graph changed since.
    func toManyContents(of object: ManagedObject, relationship index: Int) -> ToManyContents? {
        let relationship = object.entity.relationships[index]
        if let contents = object.related?.toMany[index] {
            if case .joinTable(_, isOwner: true) = relationship.storage { return contents }
            if contents.generation == graph.generation { return contents }
        }
        let references: [Int64]
        switch relationship.storage {
        case .unresolved, .foreignKey:
            return nil
        case .joinTable(let table, isOwner: true):
            references = object.hasTemporaryKey ? [] : ((try? store.links(in: table, owners: [object.identityKey])) ?? []).map(\.key)
        case .joinTable(let table, isOwner: false):
            references = (try? derivedLinks(of: [object], table: table, relationship: relationship))?.first ?? []
        case .inverseForeignKey(_, let slot, let positionSlot):
            let members = (try? derivedMembers(of: [object], relationship: relationship, slot: slot,
                                               positionSlot: positionSlot))?.first ?? []
            let contents = ToManyContents(references: members.map(\.reference), generation: graph.generation)
            contents.isDense = positionSlot != nil && members.indices.allSatisfy { members[$0].position == Int64($0) }
            if object.related == nil { object.related = RelatedObjects() }
            object.related?.toMany[index] = contents
            return contents
        }
        let contents = ToManyContents(references: references, generation: graph.generation)
        if case .joinTable(_, isOwner: true) = relationship.storage, object.insertedFlag {
            contents.committed = []
            noteListOwner(object)
        }
        if object.related == nil { object.related = RelatedObjects() }
        object.related?.toMany[index] = contents
        return contents
    }

    /// For each of `owners` (distinct objects), the objects whose to-one (`slot`) refers to it:
    /// stored rows (one query for all owners), corrected by this context's unsaved changes;
    /// ordered by position for an ordered relationship. `storedRows` replaces the store's
    /// query of the stored rows (prefetching reads whole rows instead).
    func derivedChildren(of owners: [ManagedObject], relationship: RelationshipDescription, slot: Int,
                         positionSlot: Int?, storedRows: StoredReferences? = nil) throws -> [[Int64]] {
        try derivedMembers(of: owners, relationship: relationship, slot: slot, positionSlot: positionSlot,
                           storedRows: storedRows).map { $0.map(\.reference) }
    }

    /// ``derivedChildren(of:relationship:slot:positionSlot:storedRows:)`` with each child's
    /// position (`Int64.max` when it has none, or the relationship is unordered).
    func derivedMembers(of owners: [ManagedObject], relationship: RelationshipDescription, slot: Int,
                        positionSlot: Int?, storedRows: StoredReferences? = nil) throws -> [[(reference: Int64, position: Int64)]] {
        guard let entity = destination(of: relationship) else { return owners.map { _ in [] } }
        var ownerIndex: [Int64: Int] = [:]
        ownerIndex.reserveCapacity(owners.count)
        for (index, owner) in owners.enumerated() { ownerIndex[reference(to: owner)] = index }
        var members = [[(reference: Int64, position: Int64)]](repeating: [], count: owners.count)
        let held = registry.held(entity)
        let saved = owners.filter { !$0.hasTemporaryKey }.map(\.identityKey)
        let rows = if let storedRows { try storedRows(saved) } else {
            try store.references(in: entity, slot: slot, positionSlot: positionSlot, owners: saved)
        }
        // A child deleted through a denied link stays (see `showsDeleted(through:in:)`).
        let keepsDeleted = showsDeleted(through: relationship, in: entity)
        for row in rows {
            // Objects changed or deleted here are judged by their current values, below.
            if let child = registeredObject(key: row.key, of: entity, held: held),
               child.committedStorage != nil || (child.deletedFlag && !keepsDeleted) { continue }
            if let index = ownerIndex[row.owner] { members[index].append((row.key, row.position)) }
        }
        func add(_ child: ManagedObject) {
            guard case .integer(let owner) = child.storage[slot], let index = ownerIndex[owner] else { return }
            var position = Int64.max
            if let positionSlot, case .integer(let value) = child.storage[positionSlot] { position = value }
            members[index].append((reference(to: child), position))
        }
        for child in changeTracker.changed.values where isHeld(child, as: entity) && (!child.deletedFlag || keepsDeleted) { add(child) }
        if registry.hasInserts {
            for child in registry.insertedOrder where child.insertedFlag && isHeld(child, as: entity) { add(child) }
        }
        guard positionSlot != nil else { return members }
        // Saved before unsaved, then by key: the order SQL and memory both give ties.
        return members.map { list in list.sorted { Self.listOrder($0, $1) } }
    }

    /// The order of an ordered to-many's children by (position, reference): saved before
    /// unsaved, then by key, among equal positions (the order SQL and memory both give ties).
    static func listOrder(_ lhs: (reference: Int64, position: Int64), _ rhs: (reference: Int64, position: Int64)) -> Bool {
        (lhs.position, lhs.reference < 0 ? 1 : 0, abs(lhs.reference)) < (rhs.position, rhs.reference < 0 ? 1 : 0, abs(rhs.reference))
    }

    /// For each of `objects` (distinct objects), the owners whose owned list (the inverse, in a
    /// join table) holds it: stored links (one query for all objects), corrected by this
    /// context's unsaved changes. `storedRows` replaces the store's query of the stored links.
    func derivedLinks(of objects: [ManagedObject], table: JoinTable, relationship: RelationshipDescription,
                      storedRows: StoredReferences? = nil) throws -> [[Int64]] {
        guard let ownerEntity = destination(of: relationship), let inverseName = relationship.inverseName,
              let inverseIndex = ownerEntity.relationship(named: inverseName)?.index else { return objects.map { _ in [] } }
        var objectIndex: [Int64: Int] = [:]
        objectIndex.reserveCapacity(objects.count)
        for (index, object) in objects.enumerated() { objectIndex[reference(to: object)] = index }
        var owners = [[Int64]](repeating: [], count: objects.count)
        let held = registry.held(ownerEntity)
        let keepsDeleted = showsDeleted(through: relationship, in: ownerEntity)
        func changedHere(_ owner: ManagedObject) -> Bool {
            (owner.deletedFlag && !keepsDeleted) || owner.related?.toMany[inverseIndex]?.committed != nil
        }
        let saved = objects.filter { !$0.hasTemporaryKey }.map(\.identityKey)
        let rows = if let storedRows { try storedRows(saved) } else { try store.inverseLinks(in: table, destinations: saved) }
        for row in rows {
            if let owner = registeredObject(key: row.key, of: ownerEntity, held: held), changedHere(owner) { continue }
            if let index = objectIndex[row.owner] { owners[index].append(row.key) }
        }
        var counted = Set<ObjectIdentifier>()
        for owner in pendingListOwners() where isHeld(owner, as: ownerEntity) && (!owner.deletedFlag || keepsDeleted) {
            guard let contents = owner.related?.toMany[inverseIndex], contents.committed != nil,
                  owner.insertedFlag || changeTracker.changed[ObjectIdentifier(owner)] != nil,
                  counted.insert(ObjectIdentifier(owner)).inserted else { continue }
            let ownerReference = reference(to: owner)
            if objects.count == 1 {
                // One object (a property read): a scan of the keys, no lookup per member.
                if contents.references.contains(reference(to: objects[0])) { owners[0].append(ownerReference) }
                continue
            }
            var seen = Set<Int>()
            for member in contents.references {
                if let index = objectIndex[member], seen.insert(index).inserted { owners[index].append(ownerReference) }
            }
        }
        return owners
    }

    /// Whether a relationship to `entity` may hold `object`: it is of that entity, or of one
    /// below it (a relationship to a parent holds its sub-entities' objects).
    @inline(__always)
    func isHeld(_ object: ManagedObject, as entity: EntityDescription) -> Bool {
        object.entity === entity || (entity.readsSubentities && object.entity.isKind(of: entity.name))
    }

    /// The registered object of the saved row `key` of `entity` (`held`: its registered
    /// objects) or, for an entity with sub-entities, of the entity below it that has the row.
    @inline(__always)
    func registeredObject(key: Int64, of entity: EntityDescription, held: EntityObjects?) -> ManagedObject? {
        if let object = held?.byKey[key] { return object }
        guard entity.readsSubentities else { return nil }
        for name in entity.inheritance?.concreteEntityNames ?? [] where name != entity.name {
            if let below = model.entity(named: name), let object = registry.object(of: below, key: key) { return object }
        }
        return nil
    }

    /// The pending objects that may have unsaved changes to an owned list (see ``GraphState``).
    private func pendingListOwners() -> [ManagedObject] {
        if let owners = graph.currentListOwners { return owners }
        func hasListChanges(_ object: ManagedObject) -> Bool {
            object.related?.toMany.values.contains { $0.committed != nil } == true
        }
        var objects = changeTracker.changed.values.filter(hasListChanges)
        if registry.hasInserts { objects += registry.insertedOrder.filter { $0.insertedFlag && hasListChanges($0) } }
        graph.setListOwners(objects)
        return objects
    }

    /// `owner`'s owned list now has unsaved changes: derived lists computed from now on see it.
    func noteListOwner(_ owner: ManagedObject) {
        graph.addListOwner(owner)
    }
}
