extension ManagedObjectContext {
    /// Discards every unsaved change: inserted objects are dropped, changed ones get their
    /// saved values back, deleted ones return. Observers are told at once. The
    /// ``undoManager`` forgets every action, as in Core Data.
    ///
    /// ```swift
    /// task.name = "Typo"
    /// context.delete(other)
    /// context.rollback()                // task has its saved name again; other is no longer deleted
    /// ```
    public func rollback() {
        undoManager?.removeAllActions()
        for object in insertedObjects where !object.entity.relationships.isEmpty { noteLinksOfDiscardedInsert(object) }
        for object in insertedObjects {
            object.insertedFlag = false
            object.deletedFlag = true
            object.managedObjectContext = nil
            if !pendingNotice.cancelInsert(object) { pendingNotice.queueDelete(object) }
            pendingNotice.cancelUpdate(object)
        }
        registry.forgetInserts()
        graph.advance()
        var rolledBackLists: [(object: ManagedObject, lists: [Int: [Int64]])] = []
        // Where the objects' to-ones pointed, and the deleted objects that return: the lists of
        // the objects they leave or join change too.
        let targetsBefore = model.hasRelationships ? changeTracker.changed.values.compactMap(toManyTargets) : []
        let restored = model.hasRelationships ? Array(changeTracker.deleted.values) : []
        for object in changeTracker.changed.values {
            if let related = object.related {
                let lists = rollBackRelationships(of: object, related)
                if !lists.isEmpty { rolledBackLists.append((object, lists)) }
            }
            guard let committed = object.committedStorage else { continue }
            let slots = SlotSet(committed.indices.filter { !SQLValue.identical(committed[$0], object.storage[$0]) })
            object.announceWillChange(slots)
            object.storage = committed
            object.announceDidChange(slots)
            object.committedStorage = nil
            object.encodingProblems = nil
            if object.deletedFlag && !changeTracker.isPendingDeletion(object) {
                object.managedObjectContext = nil   // deleted elsewhere: nothing to return to
                continue
            }
            // Queued even when a deletion is pending: the rollback below cancels that deletion
            // too, and observers placed the object by the values it is leaving.
            pendingNotice.queueUpdate(object, slots: slots)
        }
        // Another context may have saved newer values while these had local changes: read the
        // reverted objects again, so they show what the store holds now.
        var reverted: [ObjectIdentifier: (EntityDescription, Set<Int64>)] = [:]
        for object in changeTracker.changed.values where !object.deletedFlag || changeTracker.isPendingDeletion(object) {
            reverted[ObjectIdentifier(object.entity), default: (object.entity, [])].1.insert(object.objectID.key)
        }
        changeTracker.forgetChanges()
        for object in changeTracker.deleted.values {
            object.deletedFlag = false
            if !pendingNotice.cancelDelete(object) { pendingNotice.queueInsert(object) }
            reverted[ObjectIdentifier(object.entity), default: (object.entity, [])].1.insert(object.objectID.key)
        }
        changeTracker.forgetDeletions()
        for (entity, keys) in reverted.values {
            for key in keys { registry.object(of: entity, key: key)?.version = -1 }
            let found = (try? readObjects(entity: entity, keys: keys.sorted())) ?? []
            // Gone from the store meanwhile: deleted elsewhere.
            let present = Set(found.map(\.objectID.key))
            for key in keys where !present.contains(key) {
                if let object = registry.held(entity)?.byKey.removeValue(forKey: key) {
                    pendingNotice.cancelInsert(object)
                    markDeletedElsewhere(object)
                }
            }
        }
        for (object, lists) in rolledBackLists where !object.deletedFlag { noteStoredListChanges(of: object, from: lists) }
        for (object, before) in targetsBefore where !object.deletedFlag { noteToManyTargets(of: object, changedFrom: before) }
        for object in restored where !object.deletedFlag { noteToManyTargets(of: object, changedFrom: [:]) }
        processPendingChanges()
        if family.parent != nil { takeParentStateAgain() }
    }

    /// Owned lists back to what was saved (queued for observers), refused assignments forgotten.
    /// Returns the lists rolled back, as they were read: the store may hold newer ones.
    @discardableResult
    func rollBackRelationships(of object: ManagedObject, _ related: RelatedObjects) -> [Int: [Int64]] {
        related.problems.removeAll()
        related.toOne.removeAll()
        var rolledBack: [Int: [Int64]] = [:]
        for (index, contents) in related.toMany {
            guard let committed = contents.committed else { continue }
            if committed != contents.references {
                noteToManyChange(object, relationship: index)
                noteListPartners(of: object, relationship: index, from: contents.references, to: committed)
            }
            contents.references = committed
            contents.committed = nil
            contents.objects = nil
            rolledBack[index] = committed
        }
        return rolledBack
    }
}
