extension ManagedObjectContext {
    /// Re-reads an object from the store. With `mergeChanges` false its unsaved changes are
    /// discarded; with true they are kept on top of the fresh values.
    ///
    /// An object that the store no longer has becomes deleted (``ManagedObject/isDeleted``).
    /// With `mergeChanges` false, the values of `.externalStorage` attributes it read from
    /// their files are let go too, to be read again when next used.
    ///
    /// ```swift
    /// context.refresh(task, mergeChanges: false)   // the store's values; unsaved changes dropped
    /// context.refresh(task, mergeChanges: true)    // the store's values under this context's changes
    /// ```
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        guard object.managedObjectContext === self, !object.insertedFlag else { return }
        if !mergeChanges && family.parent != nil { family.forgetBaseline(of: object) }   // the store's values, pushing nothing
        let local = object.committedStorage.map { committed in
            committed.indices.filter { !SQLValue.identical(committed[$0], object.storage[$0]) }.map { ($0, object.storage[$0]) }
        } ?? []
        var rolledBackLists: [Int: [Int64]] = [:]
        let targetsBefore = model.hasRelationships ? toManyTargets(of: object) : nil
        if !mergeChanges {
            // Back to a fault: relationships load again when read.
            if let related = object.related, related.hasChanges { rolledBackLists = rollBackRelationships(of: object, related) }
            object.related = nil
            object.loadedExternalValues = nil
        } else if let related = object.related {
            related.toOne.removeAll()
            related.toMany = related.toMany.filter { $0.value.committed != nil }
        }
        graph.advance()
        if mergeChanges && !local.isEmpty {
            refreshKeeping(local, of: object)
            return
        }
        if !mergeChanges, let committed = object.committedStorage {
            noteRefreshed(object, newStorage: committed)
            object.committedStorage = nil
            changeTracker.forgetChange(object)
        }
        object.committedStorage = nil
        changeTracker.forgetChange(object)
        object.version = -1   // forces the read below to replace the values
        let found = (try? readObjects(entity: object.entity, keys: [object.objectID.key])) ?? []
        if found.isEmpty {
            registry.held(object.entity)?.byKey[object.objectID.key] = nil
            markDeletedElsewhere(object)
            return
        }
        if !rolledBackLists.isEmpty { noteStoredListChanges(of: object, from: rolledBackLists) }
        if let targetsBefore { noteToManyTargets(of: object, changedFrom: targetsBefore.values) }
    }

    /// `refresh(_:mergeChanges: true)` of an object with local values: the stored row with
    /// the local values on top, in one step, so that observers hear exactly what the store
    /// changed (a local to-one stays, and neither of its targets is reported), and lists are
    /// computed again only once the final values are in place.
    private func refreshKeeping(_ local: [(Int, SQLValue)], of object: ManagedObject) {
        var row: (version: Int64, storage: ContiguousArray<SQLValue>)?
        try? store.read(object.entity, keys: [object.objectID.key]) { _, version, decode in row = (version, try decode()) }
        guard let row else {
            object.committedStorage = nil
            changeTracker.forgetChange(object)
            registry.held(object.entity)?.byKey[object.objectID.key] = nil
            markDeletedElsewhere(object)
            return
        }
        var merged = row.storage
        for (slot, value) in local { merged[slot] = value }
        noteRefreshed(object, newStorage: merged)
        object.committedStorage = row.storage
        changeTracker.keepChanged(object)
        object.version = row.version
        graph.advance()
    }
}
