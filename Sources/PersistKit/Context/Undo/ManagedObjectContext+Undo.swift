/// Undo's side of the context: recording what a change is about to overwrite, and applying a
/// group's records back through the ordinary change paths (see ``ContextUndoManager``).
///
/// The change paths call in here with one line each, behind a test of `undoManager`, so a
/// context without an undo manager pays that test only.
extension ManagedObjectContext {
    // MARK: Recording

    /// Before `object` first changes in the group being recorded (a value, a to-one, its
    /// insertion or deletion): its record, as it is now.
    func undoRecordWillChange(_ object: ManagedObject) {
        guard let group = undoManager?.recordingGroup(), !group.contains(object) else { return }
        undoAdd(object, to: group)
    }

    /// Before `owner`'s owned list `index` (a join table's owning side) changes: the list as
    /// it is now, with the owner's record.
    func undoRecordWillChangeList(_ owner: ManagedObject, relationship index: Int, _ contents: ToManyContents) {
        guard let group = undoManager?.recordingGroup(), !group.holdsList(of: owner, relationship: index) else { return }
        if !group.contains(owner) { undoAdd(owner, to: group) }
        group.addList(undoTargets(of: contents, owner.entity.relationships[index]), of: owner, relationship: index)
    }

    /// Before `object` is deleted: its record with its owned lists, which a deletion keeps
    /// but a saved deletion lets go (it may come back as a new object), and its ordered lists
    /// derived from their members' to-ones, whose order a saved deletion loses too.
    func undoRecordWillDelete(_ object: ManagedObject) {
        guard let group = undoManager?.recordingGroup() else { return }
        if !group.contains(object) { undoAdd(object, to: group) }
        for relationship in object.entity.relationships {
            switch relationship.storage {
            case .joinTable(_, isOwner: true), .inverseForeignKey(_, _, _?):
                undoAddList(of: object, relationship: relationship.index, to: group)
            default:
                continue
            }
        }
    }

    /// Adds `object`'s record; for a member of an ordered list derived from its to-one (a
    /// step of a plan), the owner's list too, in its order now: positions are rewritten by
    /// later edits, so only the order recorded here tells the order to go back to.
    private func undoAdd(_ object: ManagedObject, to group: UndoGroup) {
        let record = undoRecord(of: object)
        group.add(record)
        guard record.wasLive else { return }
        for relationship in object.entity.relationships {
            guard case .foreignKey(_, _?) = relationship.storage, let inverseName = relationship.inverseName,
                  case .object(let owner)?? = record.toOnes[relationship.index], isLive(owner),
                  let inverse = owner.entity.relationship(named: inverseName) else { continue }
            if !group.contains(owner) { undoAdd(owner, to: group) }
            undoAddList(of: owner, relationship: inverse.index, to: group)
        }
    }

    /// Records `owner`'s to-many `index` as it reads now, unless recorded already.
    private func undoAddList(of owner: ManagedObject, relationship index: Int, to group: UndoGroup) {
        guard !group.holdsList(of: owner, relationship: index), owner.managedObjectContext === self else { return }
        group.addList(toManyObjects(of: owner, relationship: index).map { .object($0) }, of: owner, relationship: index)
    }

    private func undoRecord(of object: ManagedObject) -> UndoRecord {
        var values = object.storage
        // A value kept in a file is recorded as the value: a save removes the files no row
        // names, so the reference could name nothing by the time the group is undone.
        for attribute in object.entity.attributes where attribute.allowsExternalStorage && attribute.index < values.count {
            if let value = try? object.externalStoredValue(values[attribute.index], at: attribute.index) {
                values[attribute.index] = value
            }
        }
        var toOnes: [Int: UndoRecord.Target?] = [:]
        for relationship in object.entity.relationships {
            guard case .foreignKey(let slot, _) = relationship.storage else { continue }
            guard case .integer(let reference) = values[slot], let destination = destination(of: relationship) else {
                toOnes[relationship.index] = .some(nil)
                continue
            }
            toOnes[relationship.index] = undoTarget(reference, in: destination)
        }
        let live = object.managedObjectContext === self && !object.deletedFlag
        return UndoRecord(object: object, wasLive: live, values: values, toOnes: toOnes)
    }

    /// A reference as the object it names when that is in memory (no store read: a change is
    /// under way), else the saved row's key.
    private func undoTarget(_ reference: Int64, in destination: EntityDescription) -> UndoRecord.Target? {
        if reference < 0 { return registry.insertedObject(temporaryKey: -reference).map { .object($0) } }
        if let object = registry.object(of: destination, key: reference) { return .object(object) }
        for name in destination.inheritance?.concreteEntityNames ?? [] {
            if let entity = model.entity(named: name), let object = registry.object(of: entity, key: reference) {
                return .object(object)
            }
        }
        return .key(reference)
    }

    private func undoTargets(of contents: ToManyContents, _ relationship: RelationshipDescription) -> [UndoRecord.Target] {
        if let objects = contents.objects, objects.count == contents.references.count { return objects.map { .object($0) } }
        guard let destination = destination(of: relationship) else { return [] }
        return contents.references.compactMap { undoTarget($0, in: destination) }
    }

    // MARK: Applying

    /// Puts back what `group` recorded, through the ordinary change paths, while the manager
    /// records the reverse into `reverse`: objects the group found live come back first, then
    /// values, to-ones, owned lists and ordered positions are restored, then objects the group
    /// found gone (inserted by it) leave.
    func undoApply(_ group: UndoGroup, recordingInto reverse: UndoGroup) {
        for record in group.records {
            if !reverse.contains(record.object) { undoAdd(record.object, to: reverse) }
            for index in record.lists.keys { undoAddList(of: record.object, relationship: index, to: reverse) }
        }
        var returned: [ManagedObject] = []
        for record in group.records where record.wasLive && !isLive(record.object) {
            if bringBack(record.object) { returned.append(record.object) }
        }
        if !returned.isEmpty { graph.advance() }
        let restoring = group.records.filter { $0.wasLive && isLive($0.object) }
        for record in restoring { restoreAttributes(record) }
        for record in restoring { restoreToOnes(record) }
        for record in restoring { restoreLists(record) }
        restoreOrder(restoring)
        for record in group.records.reversed() where !record.wasLive && isLive(record.object) {
            delete(record.object)
        }
        for object in returned where isLive(object) { noteLinksOfReturned(object) }
    }

    private func isLive(_ object: ManagedObject) -> Bool {
        object.managedObjectContext === self && !object.deletedFlag
    }

    /// Brings back an object the group found live: a pending deletion is cancelled, a dropped
    /// insert is inserted again under its temporary key, and an object whose deletion was
    /// saved (its row is gone) is inserted as new. False when it belongs to another context.
    private func bringBack(_ object: ManagedObject) -> Bool {
        if object.managedObjectContext === self, changeTracker.isPendingDeletion(object) {
            object.deletedFlag = false
            changeTracker.forgetDeletion(object)
            if !pendingNotice.cancelDelete(object) { pendingNotice.queueInsert(object) }
            return true
        }
        if object.managedObjectContext === self {
            // Deleted elsewhere: the row is gone; it comes back as a new object.
            registry.held(object.entity)?.byKey.remove(object.identityKey, ifIdenticalTo: object)
            changeTracker.forgetChange(object)
        } else if object.managedObjectContext != nil {
            return false
        }
        let key: Int64
        if object.hasTemporaryKey {
            key = object.identityKey
        } else {
            key = ManagedObjectContext.temporaryKeys.add(1, ordering: .relaxed).newValue
            object.objectID = ObjectID(scope: objectIDScope(of: object.entity), key: key, isTemporary: true)
            object.related = nil
            object.committedStorage = nil
            object.version = 0
            object.leftUnregistered = false
        }
        object.managedObjectContext = self
        if isObservable { object.lifecycle.insert(.tracksReads) }
        object.insertedFlag = true
        object.deletedFlag = false
        registry.noteReinsert(object, temporaryKey: model.hasRelationships ? key : nil)
        if !pendingNotice.cancelDelete(object) { pendingNotice.queueInsert(object) }
        return true
    }

    private func restoreAttributes(_ record: UndoRecord) {
        let object = record.object
        for attribute in object.entity.attributes where attribute.index < record.values.count {
            let value = record.values[attribute.index]
            var current = object.storage[attribute.index]
            if attribute.allowsExternalStorage, let loaded = try? object.externalStoredValue(current, at: attribute.index) {
                current = loaded
            }
            if !SQLValue.identical(current, value) { object.setStoredValue(value, at: attribute.index) }
        }
    }

    private func restoreToOnes(_ record: UndoRecord) {
        let object = record.object
        for (index, target) in record.toOnes.sorted(by: { $0.key < $1.key }) {
            guard case .foreignKey(let slot, _) = object.entity.relationships[index].storage else { continue }
            let wanted = target.flatMap { resolveUndoTarget($0, of: object.entity.relationships[index]) }
            let value: SQLValue = wanted.map { .integer(reference(to: $0)) } ?? .null
            if SQLValue.identical(object.storage[slot], value) { continue }
            setToOneRelationship(of: object, relationship: index, to: wanted)
        }
    }

    private func restoreLists(_ record: UndoRecord) {
        let object = record.object
        for (index, targets) in record.lists.sorted(by: { $0.key < $1.key }) {
            let relationship = object.entity.relationships[index]
            guard case .joinTable(_, isOwner: true) = relationship.storage else { continue }
            let wanted = targets.compactMap { resolveUndoTarget($0, of: relationship) }
            let now = toManyObjects(of: object, relationship: index)
            let same = relationship.kind == .orderedToMany ? now.elementsEqual(wanted, by: ===)
                : Set(now.map(ObjectIdentifier.init)) == Set(wanted.map(ObjectIdentifier.init))
            if !same { setRelationship(of: object, relationship: index, to: wanted) }
        }
    }

    /// Ordered lists derived from their members' to-ones and positions: each recorded one
    /// gets its members (as the restored to-ones make them) back in the recorded order.
    private func restoreOrder(_ restoring: [UndoRecord]) {
        for record in restoring {
            let owner = record.object
            for (index, targets) in record.lists.sorted(by: { $0.key < $1.key }) {
                guard case .inverseForeignKey(_, _, _?) = owner.entity.relationships[index].storage else { continue }
                var recorded: [ObjectIdentifier: Int] = [:]
                for (position, target) in targets.enumerated() {
                    if case .object(let member) = target { recorded[ObjectIdentifier(member)] = position }
                }
                let members = toManyObjects(of: owner, relationship: index)
                let sorted = members.enumerated().sorted {
                    (recorded[ObjectIdentifier($0.element)] ?? .max, $0.offset) < (recorded[ObjectIdentifier($1.element)] ?? .max, $1.offset)
                }.map(\.element)
                if !sorted.elementsEqual(members, by: ===) { setRelationship(of: owner, relationship: index, to: sorted) }
            }
        }
    }

    private func resolveUndoTarget(_ target: UndoRecord.Target, of relationship: RelationshipDescription) -> ManagedObject? {
        switch target {
        case .object(let object):
            return isLive(object) ? object : nil
        case .key(let key):
            guard let destination = destination(of: relationship), let object = resolve(key, in: destination) else { return nil }
            return isLive(object) ? object : nil
        }
    }

    /// An object that came back: the lists derived from its to-ones and owned lists show it
    /// again, and their owners are told.
    private func noteLinksOfReturned(_ object: ManagedObject) {
        guard !object.entity.relationships.isEmpty else { return }
        noteToManyTargets(of: object, changedFrom: [:])
        for relationship in object.entity.relationships {
            guard case .joinTable(_, isOwner: true) = relationship.storage,
                  let references = toManyContents(of: object, relationship: relationship.index)?.references else { continue }
            noteListPartners(of: object, relationship: relationship.index, from: [], to: references)
        }
    }
}
