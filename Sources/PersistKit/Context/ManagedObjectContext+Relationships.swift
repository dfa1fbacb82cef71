/// Reading relationships: references (a primary key, or an unsaved object's temporary key
/// negated) resolved to this context's objects, and to-manys loaded or derived from the side
/// that owns them.
extension ManagedObjectContext {
    /// How `object` is referred to from storage: its key, or its temporary key negated.
    @inline(__always)
    func reference(to object: ManagedObject) -> Int64 {
        object.tiebreakIsTemporary ? -object.tiebreakKey : object.tiebreakKey
    }

    /// The destination entity of a relationship in this context's model.
    func destination(of relationship: RelationshipDescription) -> EntityDescription? {
        model.entity(named: relationship.destinationEntityName)
    }

    /// This context's object for a reference: an unsaved insert, a registered object, or one
    /// read now (a fault fired). Nil when there is none.
    func resolve(_ reference: Int64, in entity: EntityDescription) -> ManagedObject? {
        if reference < 0 {
            guard let object = insertedByTemporaryKey[-reference], object.insertedFlag else { return nil }
            return object
        }
        if let object = registered[ObjectIdentifier(entity)]?.byKey[reference] { return object }
        return (try? readObjects(entity: entity, keys: [reference]))?.first
    }

    /// The objects for references, in order, reading the missing ones in one query.
    func resolve(_ references: [Int64], in entity: EntityDescription) -> [ManagedObject] {
        let held = registered[ObjectIdentifier(entity)]
        let missing = references.filter { $0 > 0 && held?.byKey[$0] == nil }
        var read: [Int64: ManagedObject] = [:]
        if !missing.isEmpty {
            let objects = entityObjects(entity)
            try? store.read(entity, keyList: missing) { key, version, decode in
                read[key] = try materialize(key: key, version: version, decode, entity: entity, objects: objects)
            }
        }
        return references.compactMap { reference in
            if reference < 0 { return insertedByTemporaryKey[-reference].flatMap { $0.insertedFlag ? $0 : nil } }
            return read[reference] ?? held?.byKey[reference] ?? registered[ObjectIdentifier(entity)]?.byKey[reference]
        }
    }

    // MARK: To-one

    /// The object a to-one holds; a deleted one reads as nil.
    func toOneObject(of object: ManagedObject, relationship index: Int) -> ManagedObject? {
        guard index < object.entity.relationships.count else { return nil }
        let relationship = object.entity.relationships[index]
        guard case .foreignKey(let slot, _) = relationship.storage, case .integer(let reference) = object.storage[slot] else {
            return nil
        }
        if let cached = object.related?.toOne[index], cached.reference == reference,
           cached.object.managedObjectContext === self, !cached.object.deletedFlag {
            return cached.object
        }
        guard let entity = destination(of: relationship), let target = resolve(reference, in: entity), !target.deletedFlag else {
            return nil
        }
        if object.related == nil { object.related = RelatedObjects() }
        object.related?.toOne[index] = (reference, target)
        return target
    }

    // MARK: To-many

    /// The objects a to-many holds, in order for an ordered one (deleted ones left out).
    func toManyObjects(of object: ManagedObject, relationship index: Int) -> [ManagedObject] {
        guard index < object.entity.relationships.count, let contents = toManyContents(of: object, relationship: index),
              let entity = destination(of: object.entity.relationships[index]) else { return [] }
        if let objects = contents.objects, objects.count == contents.references.count,
           objects.allSatisfy({ $0.managedObjectContext === self && !$0.deletedFlag }) {
            return objects
        }
        let objects = resolve(contents.references, in: entity).filter { !$0.deletedFlag }
        contents.objects = objects
        return objects
    }

    /// A to-many's references: the owning side's list (loaded once), or the derived side's,
    /// computed again whenever the graph changed since.
    func toManyContents(of object: ManagedObject, relationship index: Int) -> ToManyContents? {
        let relationship = object.entity.relationships[index]
        if let contents = object.related?.toMany[index] {
            if case .joinTable(_, isOwner: true) = relationship.storage { return contents }
            if contents.generation == graphGeneration { return contents }
        }
        let references: [Int64]
        switch relationship.storage {
        case .unresolved, .foreignKey:
            return nil
        case .joinTable(let table, isOwner: true):
            references = object.tiebreakIsTemporary ? [] : ((try? store.links(in: table, owners: [object.tiebreakKey])) ?? []).map(\.key)
        case .joinTable(let table, isOwner: false):
            references = derivedLinks(of: object, table: table, relationship: relationship)
        case .inverseForeignKey(_, let slot, let positionSlot):
            references = derivedChildren(of: object, relationship: relationship, slot: slot, positionSlot: positionSlot)
        }
        let contents = ToManyContents(references: references, generation: graphGeneration)
        if case .joinTable(_, isOwner: true) = relationship.storage, object.insertedFlag { contents.committed = [] }
        if object.related == nil { object.related = RelatedObjects() }
        object.related?.toMany[index] = contents
        return contents
    }

    /// The objects whose to-one (`slot`) refers to `owner`: stored rows, corrected by this
    /// context's unsaved changes; ordered by position for an ordered relationship.
    private func derivedChildren(of owner: ManagedObject, relationship: RelationshipDescription, slot: Int,
                                 positionSlot: Int?) -> [Int64] {
        guard let entity = destination(of: relationship) else { return [] }
        let ownerReference = reference(to: owner)
        var members: [(reference: Int64, position: Int64)] = []
        let held = registered[ObjectIdentifier(entity)]
        if !owner.tiebreakIsTemporary {
            let stored = (try? store.references(in: entity, slot: slot, positionSlot: positionSlot, owners: [owner.tiebreakKey])) ?? []
            for row in stored {
                // Objects changed or deleted here are judged by their current values, below.
                if let child = held?.byKey[row.key], child.committedStorage != nil || child.deletedFlag { continue }
                members.append((row.key, row.position))
            }
        }
        func position(_ child: ManagedObject) -> Int64 {
            guard let positionSlot, case .integer(let value) = child.storage[positionSlot] else { return Int64.max }
            return value
        }
        for child in changed.values where child.entity === entity && !child.deletedFlag
            && child.storage[slot] == .integer(ownerReference) {
            members.append((reference(to: child), position(child)))
        }
        if insertedCount > 0 {
            for child in insertedOrder where child.insertedFlag && child.entity === entity && child.storage[slot] == .integer(ownerReference) {
                members.append((reference(to: child), position(child)))
            }
        }
        if positionSlot != nil {
            // Saved before unsaved, then by key: the order SQL and memory both give ties.
            members.sort { ($0.position, $0.reference < 0 ? 1 : 0, abs($0.reference)) < ($1.position, $1.reference < 0 ? 1 : 0, abs($1.reference)) }
        }
        return members.map(\.reference)
    }

    /// The owners whose owned list (the inverse, in a join table) holds `object`: stored links,
    /// corrected by this context's unsaved changes.
    private func derivedLinks(of object: ManagedObject, table: JoinTable, relationship: RelationshipDescription) -> [Int64] {
        guard let ownerEntity = destination(of: relationship), let inverseName = relationship.inverseName,
              let inverseIndex = ownerEntity.relationship(named: inverseName)?.index else { return [] }
        let objectReference = reference(to: object)
        var owners: [Int64] = []
        let held = registered[ObjectIdentifier(ownerEntity)]
        func changedHere(_ owner: ManagedObject) -> Bool {
            owner.deletedFlag || owner.related?.toMany[inverseIndex]?.committed != nil
        }
        if !object.tiebreakIsTemporary {
            for row in (try? store.inverseLinks(in: table, destinations: [object.tiebreakKey])) ?? [] {
                if let owner = held?.byKey[row.key], changedHere(owner) { continue }
                owners.append(row.key)
            }
        }
        var pending = Array(changed.values)
        if insertedCount > 0 { pending += insertedOrder.filter(\.insertedFlag) }
        for owner in pending where owner.entity === ownerEntity && !owner.deletedFlag {
            if let contents = owner.related?.toMany[inverseIndex], contents.committed != nil,
               contents.references.contains(objectReference) {
                owners.append(reference(to: owner))
            }
        }
        return owners
    }
}
