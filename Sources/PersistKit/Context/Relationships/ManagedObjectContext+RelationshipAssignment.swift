/// Changing relationships: every change is made on the side that owns the link (a to-one's
/// foreign key, or the owning list of a join table), so the inverse, derived from it, agrees
/// at once; rollback, which restores the owning side, restores both.
extension ManagedObjectContext {
    /// Sets a relationship of `object` to `objects` (at most one for a to-one). An assignment
    /// that cannot be made (an object of another context, a deleted one) changes nothing and
    /// is reported by the next save.
    func setRelationship(of object: ManagedObject, relationship index: Int, to objects: [ManagedObject]) {
        guard index < object.entity.relationships.count else { return }
        let relationship = object.entity.relationships[index]
        if let problem = assignmentProblem(object, relationship, objects) {
            recordProblem(problem, of: object, relationship: index)
            return
        }
        if object.related?.problems[index] != nil { object.related?.problems[index] = nil }
        var unique: [ManagedObject] = []
        if objects.count > 1 {
            var seen = Set<ObjectIdentifier>()
            for target in objects where seen.insert(ObjectIdentifier(target)).inserted { unique.append(target) }
        } else {
            unique = objects
        }
        switch relationship.storage {
        case .unresolved:
            return
        case .foreignKey:
            setToOne(object, relationship, unique.first)
        case .inverseForeignKey(let inverse, _, let positionSlot):
            setChildren(of: object, relationship, inverse: inverse, positionSlot: positionSlot, to: unique)
        case .joinTable(_, isOwner: true):
            setOwnedList(of: object, relationship, to: unique)
        case .joinTable(_, isOwner: false):
            setOwners(of: object, relationship, to: unique)
        }
    }

    /// Sets a to-one of `object` to `target` (`task.project = home`): as `setRelationship`
    /// with at most one object, without making an array of it.
    func setToOneRelationship(of object: ManagedObject, relationship index: Int, to target: ManagedObject?) {
        let relationships = object.entity.relationships
        guard index < relationships.count, case .foreignKey = relationships[index].storage else {
            return setRelationship(of: object, relationship: index, to: target.map { [$0] } ?? [])
        }
        if let problem = sourceProblem(object, relationships[index], count: target == nil ? 0 : 1)
            ?? target.flatMap({ targetProblem(object, relationships[index], $0) }) {
            recordProblem(problem, of: object, relationship: index)
            return
        }
        if object.related?.problems[index] != nil { object.related?.problems[index] = nil }
        setToOne(object, relationships[index], target)
    }

    func assignmentProblem(_ object: ManagedObject, _ relationship: RelationshipDescription,
                                   _ objects: [ManagedObject]) -> String? {
        if let problem = sourceProblem(object, relationship, count: objects.count) { return problem }
        for target in objects {
            if let problem = targetProblem(object, relationship, target) { return problem }
        }
        return nil
    }

    /// Why `object`'s `relationship` cannot hold `count` objects, if it cannot.
    private func sourceProblem(_ object: ManagedObject, _ relationship: RelationshipDescription, count: Int) -> String? {
        if case .unresolved = relationship.storage {
            return "\(object.entity.name).\(relationship.name) is not a relationship of this context's model"
        }
        if object.deletedFlag { return "\(object.entity.name).\(relationship.name) was set on a deleted object" }
        if relationship.kind == .toOne && count > 1 {
            return "\(object.entity.name).\(relationship.name) is a to-one: it cannot hold \(count) objects"
        }
        return nil
    }

    /// Why `object`'s `relationship` cannot hold `target`, if it cannot.
    private func targetProblem(_ object: ManagedObject, _ relationship: RelationshipDescription, _ target: ManagedObject) -> String? {
        // The message is made only for a problem: the checks run once per link.
        guard target.managedObjectContext !== self || target.deletedFlag
                || !target.entity.isKind(of: relationship.destinationEntityName) else { return nil }
        let what = "\(object.entity.name).\(relationship.name)"
        if target.managedObjectContext !== self {
            return "\(what) was set to \(target.entity.name) \(target.objectID), which belongs to "
                + (target.managedObjectContext == nil ? "no context" : "another context")
        }
        if target.deletedFlag { return "\(what) was set to a deleted \(target.entity.name) (\(target.objectID))" }
        return "\(what) holds \(relationship.destinationEntityName) objects, not \(target.entity.name)"
    }

    func recordProblem(_ problem: String, of object: ManagedObject, relationship index: Int) {
        if object.related == nil { object.related = RelatedObjects() }
        object.related?.problems[index] = problem
        markChanged(object)
    }

    /// Registers a saved object as changed (keeping its saved values), so the next save
    /// handles it even when only its relationships changed.
    func markChanged(_ object: ManagedObject) {
        changeTracker.markChanged(object)
    }

    /// Tells observers a to-many of `object` changed (its virtual slot after the columns).
    func noteToManyChange(_ object: ManagedObject, relationship index: Int) {
        object.announceChange(SlotSet([object.entity.columns.count + index]))
        queueToManyNotice(object, relationship: index)
    }

    /// Queues a to-many change of `object` for observers only (Observation heard of it).
    func queueToManyNotice(_ object: ManagedObject, relationship index: Int) {
        guard object.managedObjectContext === self, !object.insertUnprocessed else { return }
        pendingNotice.queueUpdate(object, slot: object.entity.columns.count + index)
    }

    /// Tells observers of the objects whose derived side changed: `target`'s inverse of `relationship`.
    func noteInverseChange(_ target: ManagedObject?, _ relationship: RelationshipDescription) {
        guard let target, let inverse = relationship.inverseIndex, inverse < target.entity.relationships.count,
              target.entity.relationships[inverse].kind.isToMany else { return }
        noteToManyChange(target, relationship: inverse)
    }

    /// Tells observers of the objects an unsaved insert was linked with, when a rollback
    /// discards it: their sides of the relationships no longer show it. (Saved objects that
    /// owned the links are rolled back, and reported, themselves.)
    func noteLinksOfDiscardedInsert(_ object: ManagedObject) {
        for relationship in object.entity.relationships {
            switch relationship.storage {
            case .foreignKey:
                noteInverseChange(toOneObject(of: object, relationship: relationship.index), relationship)
            case .joinTable(_, isOwner: true):
                guard let references = object.related?.toMany[relationship.index]?.references else { continue }
                noteListPartners(of: object, relationship: relationship.index, from: references, to: [])
            case .joinTable(_, isOwner: false), .inverseForeignKey, .unresolved:
                continue
            }
        }
    }

    /// Tells observers of the partners an owned list gains or loses going from `old` to `new`
    /// references (a rollback): their side of the relationship changed with it.
    func noteListPartners(of owner: ManagedObject, relationship index: Int, from old: [Int64], to new: [Int64]) {
        let relationship = owner.entity.relationships[index]
        guard relationship.inverseName != nil, let destination = destination(of: relationship) else { return }
        for reference in Set(old).symmetricDifference(new) {
            noteInverseChange(resolve(reference, in: destination), relationship)
        }
    }

    // MARK: To-one

    /// Points a to-one at `target`; for a one-to-one, the partners' foreign keys follow.
    func setToOne(_ object: ManagedObject, _ relationship: RelationshipDescription, _ target: ManagedObject?) {
        guard case .foreignKey(let slot, let positionSlot) = relationship.storage else { return }
        let newValue: SQLValue = target.map { .integer(reference(to: $0)) } ?? .null
        guard !SQLValue.identical(object.storage[slot], newValue) else { return }
        let destination = destination(of: relationship)
        let inverse = destination.flatMap(relationship.inverse(in:))
        // The old partner even when it is deleted: a one-to-one's other side must let go too.
        let old = storedToOneObject(of: object, slot: slot, in: destination)
        var position: SQLValue = .null
        if let positionSlot, let target, let inverse {
            // Appended at the end of the target's ordered list.
            position = .integer(appendPosition(in: toManyContents(of: target, relationship: inverse.index),
                                               children: object.entity, positionSlot: positionSlot))
        }
        object.setStoredValue(newValue, at: slot)
        if let positionSlot { object.setStoredValue(position, at: positionSlot) }
        if let target {
            if object.related == nil { object.related = RelatedObjects() }
            object.related?.toOne[relationship.index] = (reference(to: target), target)
        } else {
            object.related?.toOne[relationship.index] = nil
        }
        guard let inverse else { return }
        // The inverse lists it leaves and joins change in place; no other list depends on this key.
        moveChild(object, inverse: inverse, from: old, to: target, position: position)
        if case .foreignKey(let inverseSlot, _) = inverse.storage {
            keepOneToOne(object, old: old, target: target, inverseSlot: inverseSlot, relationship: relationship, inverse: inverse)
        }
        if inverse.kind.isToMany {
            if let old { noteToManyChange(old, relationship: inverse.index) }
            if let target { noteToManyChange(target, relationship: inverse.index) }
        }
    }

    private func storedToOneObject(of object: ManagedObject, slot: Int, in destination: EntityDescription?) -> ManagedObject? {
        guard case .integer(let reference) = object.storage[slot], let destination else { return nil }
        return resolve(reference, in: destination)
    }

    /// A one-to-one's other side: the old partner lets go, the new partner's old partner too.
    private func keepOneToOne(_ object: ManagedObject, old: ManagedObject?, target: ManagedObject?, inverseSlot: Int,
                              relationship: RelationshipDescription, inverse: RelationshipDescription) {
        let objectReference = SQLValue.integer(reference(to: object))
        if let old, old !== target, SQLValue.identical(old.storage[inverseSlot], objectReference) {
            old.setStoredValue(.null, at: inverseSlot)
            old.related?.toOne[inverse.index] = nil
        }
        guard let target else { return }
        if let previous = toOneObject(of: target, relationship: inverse.index), previous !== object,
           case .foreignKey(let slot, _) = relationship.storage {
            previous.setStoredValue(.null, at: slot)
            previous.related?.toOne[relationship.index] = nil
        }
        target.setStoredValue(objectReference, at: inverseSlot)
        if target.related == nil { target.related = RelatedObjects() }
        target.related?.toOne[inverse.index] = (reference(to: object), object)
    }

    // MARK: To-many

    /// Sets a to-many whose inverse is a to-one: each child's foreign key (and position) changes.
    private func setChildren(of owner: ManagedObject, _ relationship: RelationshipDescription, inverse: Int,
                             positionSlot: Int?, to children: [ManagedObject]) {
        guard let destination = destination(of: relationship), inverse < destination.relationships.count else { return }
        let inverseRelationship = destination.relationships[inverse]
        let keep = Set(children.map(ObjectIdentifier.init))
        let before = toManyObjects(of: owner, relationship: relationship.index)
        for child in before where !keep.contains(ObjectIdentifier(child)) {
            setToOne(child, inverseRelationship, nil)
        }
        // A new order of the same children changes no to-one: Observation hears it here.
        if owner.isObserved, !before.elementsEqual(children, by: ===) {
            owner.announceChange(SlotSet([owner.entity.columns.count + relationship.index]))
        }
        for (position, child) in children.enumerated() {
            setToOne(child, inverseRelationship, owner)
            if let positionSlot { child.setStoredValue(.integer(Int64(position)), at: positionSlot) }
        }
        // The owner's list is now exactly `children` (at positions 0, 1, 2... when ordered).
        let contents = ToManyContents(references: children.map(reference(to:)), generation: graph.generation, objects: children)
        contents.isDense = positionSlot != nil
        if owner.related == nil { owner.related = RelatedObjects() }
        owner.related?.toMany[relationship.index] = contents
    }

    /// Sets the owning side of a join table: the list changes here, the other side follows.
    func setOwnedList(of owner: ManagedObject, _ relationship: RelationshipDescription, to objects: [ManagedObject]) {
        guard let contents = toManyContents(of: owner, relationship: relationship.index) else { return }
        let references = objects.map(reference(to:))
        let unchanged = relationship.kind == .orderedToMany ? references == contents.references
            : Set(references) == Set(contents.references)
        guard !unchanged else { return }
        if undoManager != nil { undoRecordWillChangeList(owner, relationship: relationship.index, contents) }
        let before = Set(contents.references)
        let after = Set(references)
        if contents.committed == nil {
            contents.committed = contents.references
            noteListOwner(owner)
        }
        contents.references = references
        contents.objects = objects
        markChanged(owner)
        noteToManyChange(owner, relationship: relationship.index)
        // The partners' derived sides change in place (only objects held here can have them loaded).
        for object in objects where !before.contains(reference(to: object)) {
            linkPartner(object, owner: owner, relationship, linked: true)
            noteInverseChange(object, relationship)
        }
        if let destination = destination(of: relationship) {
            let gone = Array(before.subtracting(after))
            for object in resolve(gone.filter { $0 < 0 || registry.object(of: destination, key: $0) != nil }, in: destination) {
                linkPartner(object, owner: owner, relationship, linked: false)
                noteInverseChange(object, relationship)
            }
        }
    }

    /// Sets the derived side of a join table: each added or removed owner's list changes.
    private func setOwners(of object: ManagedObject, _ relationship: RelationshipDescription, to owners: [ManagedObject]) {
        guard let ownerEntity = destination(of: relationship), let inverseName = relationship.inverseName,
              let inverse = ownerEntity.relationship(named: inverseName) else { return }
        let current = toManyObjects(of: object, relationship: relationship.index)
        let keep = Set(owners.map(ObjectIdentifier.init))
        let had = Set(current.map(ObjectIdentifier.init))
        // Each owner's list changes by one object: edited in place when it can be.
        for owner in current where !keep.contains(ObjectIdentifier(owner)) {
            if editOwnedList(of: owner, inverse, adding: [], removing: [object]) { continue }
            setOwnedList(of: owner, inverse, to: toManyObjects(of: owner, relationship: inverse.index).filter { $0 !== object })
        }
        for owner in owners where !had.contains(ObjectIdentifier(owner)) {
            if editOwnedList(of: owner, inverse, adding: [object], removing: []) { continue }
            setOwnedList(of: owner, inverse, to: toManyObjects(of: owner, relationship: inverse.index) + [object])
        }
    }
}
