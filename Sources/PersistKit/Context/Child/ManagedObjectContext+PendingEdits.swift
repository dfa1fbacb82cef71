/// A context's unsaved edits gathered as ``PendingEdits`` values, and edits applied through the
/// context's ordinary change paths (so its change tracking, notices, Observation and
/// controllers see them as edits made here).
extension ManagedObjectContext {
    /// The objects whose edits a save or a push sends, by kind, beside the edits as values.
    struct EditedObjects {
        var inserted: [ManagedObject] = []
        var updated: [ManagedObject] = []
        var deleted: [ManagedObject] = []
    }

    /// What an object is compared with: its baseline (a child's object as the parent had it),
    /// else what the store holds.
    private func base(of object: ManagedObject, relativeToBaselines: Bool) -> ContextFamily.Baseline? {
        if relativeToBaselines, let baseline = family.baseline(of: object) { return baseline }
        guard !object.insertedFlag else { return nil }
        var lists: [Int: [Int64]] = [:]
        if let related = object.related {
            for (index, contents) in related.toMany { if let committed = contents.committed { lists[index] = committed } }
        }
        return ContextFamily.Baseline(object: object, storage: object.committedStorage ?? object.storage, lists: lists,
                                      wasInserted: false, wasDeleted: false)
    }

    /// The objects that may differ from their base, in a stable order: inserts in order, then
    /// changed, deleted, and baselined objects by key.
    private func editCandidates() -> [ManagedObject] {
        var seen = Set<ObjectIdentifier>()
        var result: [ManagedObject] = []
        func add(_ objects: [ManagedObject]) {
            for object in objects where seen.insert(ObjectIdentifier(object)).inserted { result.append(object) }
        }
        add(registry.insertedOrder)
        let byKey: (ManagedObject, ManagedObject) -> Bool = { $0.objectID.key < $1.objectID.key }
        add(changeTracker.changed.values.sorted(by: byKey))
        add(changeTracker.deleted.values.sorted(by: byKey))
        add(family.baselines.values.map(\.object).sorted(by: byKey))
        return result
    }

    /// This context's edits: relative to the store, or (`relativeToBaselines`, in a child)
    /// to what the parent held when the child last took or pushed each object.
    func pendingEdits(relativeToBaselines: Bool) -> (edits: PendingEdits, objects: EditedObjects) {
        var edits = PendingEdits()
        var objects = EditedObjects()
        // Owners of ordered lists a member joined or moved in: their whole list is sent, after
        // the members' links, so that the order arrives too.
        var orderedOwners: [(owner: ManagedObject, relationship: Int)] = []
        var seenOwners = Set<ObjectIdentifier>()
        for object in editCandidates() {
            let base = base(of: object, relativeToBaselines: relativeToBaselines)
            let deletedHere = changeTracker.isPendingDeletion(object) || (object.deletedFlag && !object.insertedFlag && base?.wasInserted == true)
            if deletedHere {
                // An insert made and deleted here never existed for the parent.
                if let base, !base.wasDeleted {
                    edits.deletes.append(object.objectID)
                    objects.deleted.append(object)
                }
                continue
            }
            if object.deletedFlag { continue }   // an insert dropped here, or deleted elsewhere
            let entity = object.entity
            if object.insertedFlag && base?.wasInserted != true {
                let values = entity.columns.indices.filter { entity.columns[$0].role == .attribute }
                    .map { PendingEdits.SlotValue(slot: $0, value: object.storage[$0]) }
                edits.inserts.append(.init(id: object.objectID, values: values))
                appendLinks(of: object, base: nil, to: &edits, orderedOwners: &orderedOwners, seen: &seenOwners)
                objects.inserted.append(object)
                continue
            }
            guard let base else { continue }
            let values = entity.columns.indices.filter {
                entity.columns[$0].role == .attribute && !SQLValue.identical(object.storage[$0], base.storage[$0])
            }.map { PendingEdits.SlotValue(slot: $0, value: object.storage[$0]) }
            let linksBefore = edits.links.count
            appendLinks(of: object, base: base, to: &edits, orderedOwners: &orderedOwners, seen: &seenOwners)
            if !values.isEmpty { edits.updates.append(.init(id: object.objectID, values: values)) }
            if !values.isEmpty || edits.links.count > linksBefore { objects.updated.append(object) }
        }
        for (owner, relationship) in orderedOwners where !owner.deletedFlag {
            let members = toManyObjects(of: owner, relationship: relationship).map(\.objectID)
            edits.links.append(.init(id: owner.objectID, relationship: relationship, targets: members))
        }
        return (edits, objects)
    }

    /// The to-ones and owned lists of `object` that differ from `base` (all that are set, for
    /// a new object).
    private func appendLinks(of object: ManagedObject, base: ContextFamily.Baseline?, to edits: inout PendingEdits,
                             orderedOwners: inout [(owner: ManagedObject, relationship: Int)], seen: inout Set<ObjectIdentifier>) {
        for relationship in object.entity.relationships {
            switch relationship.storage {
            case .foreignKey(let slot, let positionSlot):
                let current = object.storage[slot]
                if let base {
                    let moved = positionSlot.map { !SQLValue.identical(object.storage[$0], base.storage[$0]) } ?? false
                    guard !SQLValue.identical(current, base.storage[slot]) || moved else { continue }
                } else if current.isNull {
                    continue
                }
                let target = toOneObject(of: object, relationship: relationship.index)
                edits.links.append(.init(id: object.objectID, relationship: relationship.index, targets: target.map { [$0.objectID] } ?? []))
                if positionSlot != nil, let target, let inverse = relationship.inverseName,
                   let index = target.entity.relationship(named: inverse)?.index, seen.insert(ObjectIdentifier(target)).inserted {
                    orderedOwners.append((target, index))
                }
            case .joinTable(_, isOwner: true):
                guard let contents = object.related?.toMany[relationship.index] else { continue }
                if let base {
                    guard let before = base.lists[relationship.index] ?? contents.committed, before != contents.references else { continue }
                } else if contents.references.isEmpty {
                    continue
                }
                let targets = toManyObjects(of: object, relationship: relationship.index).map(\.objectID)
                edits.links.append(.init(id: object.objectID, relationship: relationship.index, targets: targets))
            default:
                continue   // the other sides follow from the owning ones
            }
        }
    }

    /// Applies `edits` here, through the ordinary change paths: inserts (under the IDs they
    /// had), values, relationships, deletions. Every object named must exist here and not be
    /// deleted, or nothing changes.
    ///
    /// - Throws: `.objectNotFound` or `.conflict` (an object the edits change was deleted here
    ///   meanwhile), before anything changed.
    func applyEdits(_ edits: PendingEdits) throws {
        var objects: [ObjectID: ManagedObject] = [:]
        let existingIDs = edits.existingIDs
        // Unsaved objects by temporary key, once: `existingObject(with:)` searches them in turn.
        var inserted: [Int64: ManagedObject] = [:]
        if existingIDs.contains(where: \.isTemporary) {
            for object in registry.insertedObjects { inserted[object.objectID.key] = object }
        }
        for id in existingIDs {
            let object = try id.isTemporary ? inserted[id.key].map { found in
                guard found.objectID == id else { throw PersistError(.objectNotFound, "No unsaved object with this temporary ID", objectIDs: [id]) }
                return found
            } ?? existingObject(with: id) : existingObject(with: id)
            if object.deletedFlag {
                throw PersistError(.conflict, "Cannot apply a child context's edits to an object deleted in its parent since",
                                   entity: object.entity.name, objectIDs: [id])
            }
            objects[id] = object
        }
        var entities: [ObjectID: EntityDescription] = [:]
        for insert in edits.inserts { entities[insert.id] = try entity(of: insert.id) }
        // Nothing can fail from here on.
        for insert in edits.inserts {
            guard let entity = entities[insert.id] else { continue }
            let object = entity.objectClass.init(entity: entity, insertInto: nil)
            register(insert: object, temporaryKey: insert.id.key)
            for value in insert.values { object.setStoredValue(value.value, at: value.slot) }
            objects[insert.id] = object
        }
        for update in edits.updates {
            guard let object = objects[update.id] else { continue }
            for value in update.values { object.setStoredValue(value.value, at: value.slot) }
        }
        for link in edits.links {
            guard let object = objects[link.id] else { continue }
            let targets = link.targets.compactMap { objects[$0] }
            if case .foreignKey = object.entity.relationships[link.relationship].storage {
                setToOneRelationship(of: object, relationship: link.relationship, to: targets.first)
            } else {
                setRelationship(of: object, relationship: link.relationship, to: targets)
            }
        }
        for id in edits.deletes {
            if let object = objects[id] { delete(object) }
        }
    }
}
