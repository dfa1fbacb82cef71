/// Upserts: under merge policy `.objectTrump`, an inserted object whose unique values a stored
/// object already has updates that object instead of failing the save, as Core Data's
/// `NSMergeByPropertyObjectTrumpMergePolicy` resolves a constraint conflict: the insert's
/// values win, every one of them (nil ones too); relationships are combined.
///
/// - Two inserts of the save with the same unique values: the later one wins, one row.
/// - The insert takes the stored row's permanent ID. If this context already holds an object
///   for that row, that object stays the one instance: it takes the insert's values, and the
///   inserted instance leaves the context (with the row's ID; observers see it deleted).
/// - Objects pointing at the insert point at the row; its to-ones replace the row's; its owned
///   lists are added to the row's (ordered ones after the row's members).
extension ManagedObjectContext {
    /// Plans the save's upserts; nil under `.error`, or when no insert has a constraint.
    /// Changes nothing in memory: the write may still fail.
    ///
    /// - Throws: ``PersistError`` `.constraintViolation` when an insert's values equal the new
    ///   values of two different objects updated in this save.
    func planUpserts(_ pending: PendingSave) throws -> UpsertPlanning? {
        guard mergePolicy == .objectTrump, !pending.inserts.isEmpty else { return nil }
        var groups: [(entity: EntityDescription, objects: [ManagedObject])] = []
        var positions: [ObjectIdentifier: Int] = [:]
        for object in pending.inserts where !object.entity.uniquenessSlots.isEmpty {
            let id = ObjectIdentifier(object.entity)
            if let position = positions[id] {
                groups[position].objects.append(object)
            } else {
                positions[id] = groups.count
                groups.append((object.entity, [object]))
            }
        }
        guard !groups.isEmpty else { return nil }
        var planning = UpsertPlanning()
        for (entity, objects) in groups {
            let winners = mergeCollidingInserts(objects, entity, &planning)
            try planTargets(of: winners, entity, pending, &planning)
        }
        planning.written = planning.aliases.isEmpty ? pending.inserts
            : pending.inserts.filter { planning.aliases[$0.objectID.key] == nil }
        return planning
    }

    /// Groups an entity's inserts that share a constraint's values (directly, or through one
    /// another): the last of each group wins, the others fold into it. Returns the winners.
    private func mergeCollidingInserts(_ objects: [ManagedObject], _ entity: EntityDescription,
                                       _ planning: inout UpsertPlanning) -> [ManagedObject] {
        var parent = Array(objects.indices)
        func root(_ start: Int) -> Int {
            var index = start
            while parent[index] != index {
                parent[index] = parent[parent[index]]
                index = parent[index]
            }
            return index
        }
        for slots in entity.uniquenessSlots where !slots.isEmpty {
            var holders: [UniquenessKey: Int] = [:]
            for (index, object) in objects.enumerated() {
                let key = UniquenessKey(object.storage, slots: slots)
                if key.containsNull { continue }
                if let other = holders.updateValue(index, forKey: key) { parent[root(other)] = root(index) }
            }
        }
        var last: [Int: Int] = [:]
        for index in objects.indices { last[root(index)] = index }
        var winners: [ManagedObject] = []
        for (index, object) in objects.enumerated() {
            guard let winner = last[root(index)], winner != index else {
                winners.append(object)
                continue
            }
            planning.folded.append((object, objects[winner]))
            planning.aliases[object.objectID.key] = objects[winner].objectID.key
        }
        return winners
    }

    /// The store's rule for the entity (the rows this save releases, per constraint), and the
    /// rows updated in this save whose new values the winners take.
    private func planTargets(of winners: [ManagedObject], _ entity: EntityDescription, _ pending: PendingSave,
                             _ planning: inout UpsertPlanning) throws {
        // In an inheritance tree, a constraint may span other entities' rows too (a parent's):
        // those the save deletes or moves off its values are released as well, but only the
        // entity's own rows can be updated by its inserts.
        let inTree = entity.inheritance != nil
        func mayHold(_ object: ManagedObject) -> Bool {
            object.entity === entity || (inTree && object.entity.tableName == entity.tableName)
        }
        let updates = pending.updates.filter(mayHold).map { ($0, Set(changedSlots(of: $0))) }
        let deletes = pending.deletes.filter(mayHold)
        var released: [Set<Int64>] = []
        var found: [ObjectIdentifier: (object: ManagedObject, rows: Set<Int64>)] = [:]
        for (constraint, slots) in entity.uniquenessSlots.enumerated() {
            let scope = entity.uniquenessScope(constraint)
            func spanned(_ object: ManagedObject) -> Bool {
                object.entity === entity || (constraint < object.entity.uniquenessSlots.count && object.entity.uniquenessScope(constraint) == scope)
            }
            var keys = Set(deletes.lazy.filter(spanned).map(\.objectID.key))
            var holders: [UniquenessKey: Int64] = [:]
            for (object, changed) in updates where !slots.isEmpty && !changed.isDisjoint(with: slots) && spanned(object) {
                keys.insert(object.objectID.key)
                let key = UniquenessKey(object.storage, slots: slots)
                if !key.containsNull, object.entity === entity { holders[key] = object.objectID.key }
            }
            released.append(keys)
            guard !holders.isEmpty else { continue }
            for winner in winners {
                let key = UniquenessKey(winner.storage, slots: slots)
                if !key.containsNull, let row = holders[key] { found[ObjectIdentifier(winner), default: (winner, [])].rows.insert(row) }
            }
        }
        planning.upserts[ObjectIdentifier(entity)] = StoreWritePlan.Upsert(constraints: entity.uniquenessSlots, released: released)
        for (object, rows) in found.values {
            guard rows.count == 1, let row = rows.first else {
                let holders = rows.sorted().map { savedObjectID(entity, key: $0) }
                throw PersistError(.constraintViolation,
                                   "Cannot upsert a new \(entity.name): its unique values are taken by \(rows.count) objects changed "
                                   + "in this save (\(rows.sorted().map { "\(entity.name) \($0)" }.joined(separator: ", "))), and only one can be updated",
                                   entity: entity.name, objectIDs: [object.objectID] + holders)
            }
            planning.pendingTargets[object.objectID.key] = row
        }
    }

    /// After the commit: each upserted insert becomes its row's object (or is absorbed by the
    /// object this context already holds for it), and inserts folded into another follow it.
    /// Objects whose one-to-one partner the save took are read again.
    func absorbUpserts(_ planning: UpsertPlanning, _ result: StoreWriteResult) {
        var survivors: [ObjectIdentifier: ManagedObject] = [:]
        // The lists each object's observers last read, compared with the new ones at the end.
        var listsRead: [(object: ManagedObject, lists: [Int: [Int64]])] = []
        for (position, version) in result.upserted.sorted(by: { $0.key < $1.key }) where position < planning.written.count {
            let object = planning.written[position], key = result.keys[position]
            let objects = entityObjects(object.entity)
            if let held = objects.byKey[key], held !== object {
                // One instance per row: the held object takes the values, the insert leaves.
                listsRead.append((held, readLists(of: held)))
                noteRefreshed(held, newStorage: object.storage)
                held.version = version
                detach(object, key: key)
                survivors[ObjectIdentifier(object)] = held
            } else {
                object.objectID = savedObjectID(object.entity, key: key)
                object.insertedFlag = false
                object.version = version
                objects.byKey.insert(object, for: key)
                // Its lists now hold the row's members too: read again when used.
                listsRead.append((object, readLists(of: object)))
                object.related?.toMany.removeAll()
            }
        }
        for (object, winner) in planning.folded {
            let survivor = survivors[ObjectIdentifier(winner)] ?? winner
            survivor.related?.toMany.removeAll()
            detach(object, key: survivor.objectID.key)
        }
        graph.advance()
        for (name, keys) in result.unlinked {
            guard let entity = model.entity(named: name), let objects = registry.held(entity) else { continue }
            let held = keys.filter { objects.byKey[$0] != nil }
            if !held.isEmpty { _ = try? readObjects(entity: entity, keys: held.sorted()) }
        }
        for (object, lists) in listsRead { noteToManyChanges(of: object, from: lists) }
    }

    /// An insert folded into another object: it takes the row's ID and leaves the context,
    /// keeping its values; observers that were told of its insertion are told it is gone.
    private func detach(_ object: ManagedObject, key: Int64) {
        object.objectID = savedObjectID(object.entity, key: key)
        object.insertedFlag = false
        object.managedObjectContext = nil
        object.related = nil
        pendingNotice.cancelUpdate(object)
        if !pendingNotice.cancelInsert(object) { pendingNotice.queueDelete(object) }
    }

    /// Queues each to-many of an object an upsert merged for observers; Observation hears the
    /// ones whose list differs from what was read (`lists`), or was not loaded.
    private func noteToManyChanges(of object: ManagedObject, from lists: [Int: [Int64]]) {
        let toMany = object.entity.relationships.lazy.filter(\.kind.isToMany).map(\.index)
        for index in toMany { queueToManyNotice(object, relationship: index) }
        announceListChanges(of: object, relationships: toMany, from: lists)
    }
}
