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
        for violation in violations {
            for id in [violation.object.objectID, violation.holder] where !involved.contains(id) { involved.append(id) }
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

    private func constrainedGroups(_ pending: PendingSave) -> [ConstrainedGroup] {
        var groups: [ObjectIdentifier: ConstrainedGroup] = [:]
        var order: [ObjectIdentifier] = []
        func withGroup(_ entity: EntityDescription, _ body: (inout ConstrainedGroup) -> Void) {
            guard !entity.uniquenessSlots.isEmpty else { return }
            let id = ObjectIdentifier(entity)
            if groups[id] == nil { order.append(id) }
            // Mutated in place: no copy of the group's arrays per object.
            body(&groups[id, default: ConstrainedGroup(entity: entity)])
        }
        for object in pending.inserts { withGroup(object.entity) { $0.inserts.append(object) } }
        for object in pending.updates {
            withGroup(object.entity) { $0.updates.append((object, Set(changedSlots(of: object)))) }
        }
        for object in pending.deletes { withGroup(object.entity) { $0.deletedKeys.insert(object.objectID.key) } }
        return order.compactMap { groups[$0] }
    }

    /// The collisions one constraint of one entity would have after the save.
    private func uniquenessViolations(_ group: ConstrainedGroup, slots: [Int]) throws -> [UniquenessViolation] {
        // The rows that take new values for this constraint, and the stored rows they replace.
        let moved = group.updates.filter { !$0.changed.isDisjoint(with: slots) }.map(\.object)
        var released = group.deletedKeys
        for object in moved { released.insert(object.objectID.key) }
        var violations: [UniquenessViolation] = []
        var holders: [UniquenessKey: ManagedObject] = [:]
        var candidates: [(object: ManagedObject, values: [SQLValue])] = []
        for object in moved + group.inserts {
            let values = slots.map { object.storage[$0] }
            if values.contains(where: \.isNull) { continue }
            let key = UniquenessKey(values)
            if let holder = holders[key] {
                violations.append(UniquenessViolation(object: object, attributes: slots.map { group.entity.attributes[$0] },
                                                      values: values, holder: holder.objectID, holderIsPending: true))
            } else {
                holders[key] = object
                candidates.append((object, values))
            }
        }
        let stored = try store.rowsHolding(group.entity, slots: slots, tuples: candidates.map(\.values))
        let candidateByValues = Dictionary(candidates.map { (UniquenessKey($0.values), $0) }, uniquingKeysWith: { first, _ in first })
        for row in stored where !released.contains(row.key) {
            guard let candidate = candidateByValues[UniquenessKey(row.values)] else { continue }
            let holder = ObjectID(entityName: group.entity.name, storeIdentifier: store.identifier, key: row.key, isTemporary: false)
            violations.append(UniquenessViolation(object: candidate.object, attributes: slots.map { group.entity.attributes[$0] },
                                                  values: candidate.values, holder: holder, holderIsPending: false))
        }
        return violations
    }
}
