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
            for slots in group.entity.uniquenessSlots where !slots.isEmpty {
                violations += try uniquenessViolations(group, slots: slots)
            }
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

    /// A save's objects of one entity that has uniqueness constraints.
    private struct ConstrainedGroup {
        let entity: EntityDescription
        var inserts: [ManagedObject] = []
        /// Updated objects, each with the slots it changes.
        var updates: [(object: ManagedObject, changed: Set<Int>)] = []
        var deletedKeys = Set<Int64>()
    }

    /// The save's objects of constrained entities, by entity, in the order first met.
    private func constrainedGroups(_ pending: PendingSave) -> [ConstrainedGroup] {
        var groups: [ConstrainedGroup] = []
        var positions: [ObjectIdentifier: Int] = [:]
        var last: (entity: EntityDescription, position: Int?)?
        // The group of an entity; nil when it has no constraint. Objects come in runs of one
        // entity: the last answer is reused without a lookup.
        func position(_ entity: EntityDescription) -> Int? {
            if let last, last.entity === entity { return last.position }
            var found: Int?
            if !entity.uniquenessSlots.isEmpty {
                found = positions[ObjectIdentifier(entity)] ?? {
                    groups.append(ConstrainedGroup(entity: entity))
                    positions[ObjectIdentifier(entity)] = groups.count - 1
                    return groups.count - 1
                }()
            }
            last = (entity, found)
            return found
        }
        for object in mergePolicy == .objectTrump ? [] : pending.inserts {
            if let index = position(object.entity) { groups[index].inserts.append(object) }
        }
        for object in pending.updates {
            if let index = position(object.entity) { groups[index].updates.append((object, Set(changedSlots(of: object)))) }
        }
        for object in pending.deletes {
            if let index = position(object.entity) { groups[index].deletedKeys.insert(object.objectID.key) }
        }
        return groups
    }

    /// The collisions one constraint of one entity would have after the save.
    private func uniquenessViolations(_ group: ConstrainedGroup, slots: [Int]) throws -> [UniquenessViolation] {
        let attributes = slots.map { group.entity.attributes[$0] }
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
                    violations.append(UniquenessViolation(object: object, attributes: attributes, values: key.values,
                                                          holder: holder.objectID, holderIsPending: true))
                } else {
                    lookups.append(key.first)
                    lookups.append(contentsOf: key.rest)
                }
            }
        }
        var stored: [(key: Int64, object: ManagedObject)] = []
        try store.forEachRow(of: group.entity, holding: lookups, at: slots) { key, values in
            if !released.contains(key), let object = holders[values] { stored.append((key, object)) }
        }
        for (key, object) in stored {
            let holder = savedObjectID(group.entity, key: key)
            violations.append(UniquenessViolation(object: object, attributes: attributes,
                                                  values: UniquenessKey(object.storage, slots: slots).values,
                                                  holder: holder, holderIsPending: false))
        }
        return violations
    }
}
