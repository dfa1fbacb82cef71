extension ManagedObjectContext {
    /// Refuses a save that would give two objects the same values for a uniqueness constraint
    /// (`@Attribute(.unique)` or an entity's ``ManagedObject/uniquenessConstraints``): against
    /// the other objects of the save first, then against the stored rows.
    ///
    /// Only objects whose constrained values are new (inserted, or changed in the save) are
    /// checked; rows the save deletes, or changes those values of, no longer hold them. nil
    /// values never collide, as in SQLite's unique indexes (which stay as the last defence:
    /// another process may write between this check and the save's transaction).
    ///
    /// Under merge policy `.objectTrump` inserts are not checked: a colliding one updates the
    /// object it collides with (an upsert, ``planUpserts(_:)``). Updated objects still are.
    ///
    /// - Throws: ``PersistError`` `.constraintViolation` naming the entity, the keys and both
    ///   objects of every collision.
    func checkUniqueness(_ pending: PendingSave) throws {
        var violations: [UniquenessViolation] = []
        for group in constrainedGroups(pending) {
            violations += try uniquenessViolations(group)
        }
        guard let first = violations.first else { return }
        var involved: [ObjectID] = []
        var seen = Set<ObjectID>()
        for violation in violations {
            for id in [violation.object.objectID, violation.holder] where seen.insert(id).inserted { involved.append(id) }
        }
        let problems = violations.map(\.sentence)
        throw PersistError(.constraintViolation,
                           problems.count == 1 ? first.sentence
                               : first.sentence + " (and \(problems.count - 1) more uniqueness violations)",
                           entity: first.object.entity.name, attribute: first.keys.joined(separator: ", "),
                           objectIDs: involved, problems: problems)
    }

    /// A save's objects under one uniqueness constraint: one entity's, or in an inheritance
    /// tree those of every entity the constraint spans (the entity that declares it and its
    /// sub-entities, which number it alike and keep its keys in the same slots).
    private struct ConstrainedGroup {
        /// The first object's entity: the constraint's numbering, slots and stored rows.
        let entity: EntityDescription
        let constraint: Int
        /// Whether the constraint spans objects of several entities (a parent's, in a tree).
        let spansEntities: Bool
        var inserts: [ManagedObject] = []
        /// Updated objects, each with the slots it changes.
        var updates: [(object: ManagedObject, changed: Set<Int>)] = []
        var deletedKeys = Set<Int64>()

        var slots: [Int] { entity.uniquenessSlots[constraint] }
    }

    /// A constraint among the rows it spans: its scope entity's name and its number there.
    private struct ConstraintScope: Hashable {
        let scope: String
        let constraint: Int
    }

    /// The save's objects of constrained entities, by constraint, in the order first met.
    ///
    /// Under merge policy `.objectTrump` inserts are left out, but for a constraint that spans
    /// several entities: an insert colliding with an object of another entity cannot update it
    /// (a Dog cannot take a Cat's row), so that collision is still an error.
    private func constrainedGroups(_ pending: PendingSave) -> [ConstrainedGroup] {
        var groups: [ConstrainedGroup] = []
        var byScope: [ConstraintScope: Int] = [:]
        var byEntity: [ObjectIdentifier: [Int]] = [:]
        var last: (entity: EntityDescription, positions: [Int])?
        // The groups of an entity's constraints; none when it has no constraint. Objects come in
        // runs of one entity: the last answer is reused without a lookup.
        func positions(_ entity: EntityDescription) -> [Int] {
            if let last, last.entity === entity { return last.positions }
            var found: [Int] = []
            if !entity.uniquenessSlots.isEmpty {
                if let known = byEntity[ObjectIdentifier(entity)] {
                    found = known
                } else {
                    for (constraint, slots) in entity.uniquenessSlots.enumerated() where !slots.isEmpty {
                        let scope = ConstraintScope(scope: entity.uniquenessScope(constraint), constraint: constraint)
                        found.append(byScope[scope] ?? {
                            let spans = entity.inheritance != nil && model.entity(named: scope.scope)?.readsSubentities == true
                            groups.append(ConstrainedGroup(entity: entity, constraint: constraint, spansEntities: spans))
                            byScope[scope] = groups.count - 1
                            return groups.count - 1
                        }())
                    }
                    byEntity[ObjectIdentifier(entity)] = found
                }
            }
            last = (entity, found)
            return found
        }
        let upserting = mergePolicy == .objectTrump
        // An object of an entity without constraints (most) costs one test.
        for object in pending.inserts where !object.entity.uniquenessSlots.isEmpty {
            for index in positions(object.entity) where !upserting || groups[index].spansEntities { groups[index].inserts.append(object) }
        }
        for object in pending.updates where !object.entity.uniquenessSlots.isEmpty {
            let found = positions(object.entity)
            guard !found.isEmpty else { continue }
            let changed = Set(changedSlots(of: object))
            for index in found { groups[index].updates.append((object, changed)) }
        }
        for object in pending.deletes where !object.entity.uniquenessSlots.isEmpty {
            for index in positions(object.entity) { groups[index].deletedKeys.insert(object.objectID.key) }
        }
        return groups
    }

    /// The collisions one constraint would have after the save.
    private func uniquenessViolations(_ group: ConstrainedGroup) throws -> [UniquenessViolation] {
        let slots = group.slots
        let attributes = slots.map { group.entity.attributes[$0] }
        // Under `.objectTrump`, an insert colliding with an object of its own entity is an upsert.
        let upserting = mergePolicy == .objectTrump
        func isUpsert(_ object: ManagedObject, _ holderEntity: String, holderInserted: Bool) -> Bool {
            upserting && (object.isInserted || holderInserted) && object.entity.name == holderEntity
        }
        // The rows that take new values for this constraint, and the stored rows they replace.
        let moved = group.updates.filter { !$0.changed.isDisjoint(with: slots) }.map(\.object)
        var released = group.deletedKeys
        for object in moved { released.insert(object.objectID.key) }
        var violations: [UniquenessViolation] = []
        var holders: [UniquenessKey: ManagedObject] = [:]
        holders.reserveCapacity(moved.count + group.inserts.count)
        var lookups: [SQLValue] = []   // the candidates' values, one tuple after another
        for objects in [moved, group.inserts] {
            for object in objects {
                let key = UniquenessKey(object.storage, slots: slots)
                if key.containsNull { continue }
                // One hash per object: put it in, and put the first holder back on a collision.
                if let holder = holders.updateValue(object, forKey: key) {
                    holders[key] = holder
                    if isUpsert(object, holder.entity.name, holderInserted: holder.isInserted) { continue }
                    violations.append(UniquenessViolation(object: object, attributes: attributes, values: key.values,
                                                          holder: holder.objectID, holderIsPending: true))
                } else {
                    lookups.append(key.first)
                    lookups.append(contentsOf: key.rest)
                }
            }
        }
        var stored: [(key: Int64, entity: String?, object: ManagedObject)] = []
        try store.forEachRow(of: group.entity, constraint: group.constraint, holding: lookups) { key, values, entityName in
            if !released.contains(key), let object = holders[values] { stored.append((key, entityName, object)) }
        }
        for (key, entityName, object) in stored {
            let entity = entityName.flatMap(model.entity(named:)) ?? object.entity
            if isUpsert(object, entity.name, holderInserted: false) { continue }
            violations.append(UniquenessViolation(object: object, attributes: attributes,
                                                  values: UniquenessKey(object.storage, slots: slots).values,
                                                  holder: savedObjectID(entity, key: key), holderIsPending: false))
        }
        return violations
    }
}
