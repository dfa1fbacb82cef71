/// Merging: bringing what other contexts and processes saved into this context.
extension ManagedObjectContext {
    /// Pulls other contexts' saves from the store's log and refreshes the objects they touched.
    func mergeChangesFromStore() {
        let (changes, complete, latest) = store.changes(after: mergeCursor.sequence, excluding: contextIdentity)
        let lastMerge = mergeCursor.beginMerge(through: latest)
        guard !changes.isEmpty || !complete else { return }
        if logSink != nil { logMerge(changes, complete: complete) }
        // Rows inserted, deleted or relinked elsewhere change derived to-manys (a project's
        // tasks) even when this context holds none of them: those are computed again when read.
        if !complete || changes.contains(where: { change in
            !change.inserted.isEmpty || !change.deleted.isEmpty
                || change.updated.keys.contains { model.entity(named: $0)?.relationships.isEmpty == false }
        }) {
            graph.advance()
        }
        if !complete || prefersRefreshingAll(after: changes) {
            refreshAllRegisteredObjects()
            pendingNotice.invalidateAll()
            return
        }
        var updatedKeys: [String: Set<Int64>] = [:]
        var insertedKeys: [String: [Int64]] = [:]
        for change in changes {
            for (entity, keys) in change.updated { updatedKeys[entity, default: []].formUnion(keys) }
            for (entity, keys) in change.inserted { insertedKeys[entity, default: []].append(contentsOf: keys) }
            for (entityName, keys) in change.deleted {
                let objects = model.entity(named: entityName).flatMap { registry.held($0) }
                var unheld: [Int64] = []
                for key in keys {
                    if let object = objects?.byKey.removeValue(forKey: key) { markDeletedElsewhere(object) } else { unheld.append(key) }
                    updatedKeys[entityName]?.remove(key)
                }
                // A batched controller holds keys, not objects: it is told of these too.
                if !observers.isEmpty { pendingNotice.queueDeletedKeys(unheld, of: entityName) }
            }
        }
        var unheld: [String: [Int64]] = [:]
        for (entityName, keys) in updatedKeys {
            guard let entity = model.entity(named: entityName) else { continue }
            let objects = registry.held(entity)
            let held = keys.filter { objects?.byKey[$0] != nil }
            // Objects read since the last merge (the old ones let go, or never held) may have
            // been read after this change was committed: their values are new already, yet
            // observers still place them, and whatever reads through them, by older ones.
            let readSince = observers.isEmpty ? [] : held.compactMap { key in
                objects?.byKey[key].flatMap { $0.readAtMerge == lastMerge ? ($0, $0.version) : nil }
            }
            // Reading refreshes unchanged objects and queues their updates for observers: in
            // one pass over the table when they are many, else by key.
            if !held.isEmpty, (try? rereadRegisteredObjectsByScan(entity: entity, only: held)) == nil {
                _ = try? readObjects(entity: entity, keys: held.sorted())
            }
            // Read at this version already: the refresh found nothing new to tell.
            for (object, version) in readSince where object.version == version && !object.deletedFlag {
                pendingNotice.queueUpdate(object, slots: SlotSet(entity.columns.indices))
            }
            if held.count < keys.count { unheld[entityName] = keys.filter { objects?.byKey[$0] == nil }.sorted() }
        }
        if changes.contains(where: { !$0.listChanges.isEmpty }) { noteMergedListChanges(changes) }
        // New objects, and changed ones this context does not hold (never read, or released),
        // are read in only when someone is watching: they may have come to match a request.
        guard !observers.isEmpty else { return }
        for (entityName, keys) in unheld {
            guard let entity = model.entity(named: entityName), let objects = try? readObjects(entity: entity, keys: keys) else { continue }
            let every = SlotSet(entity.columns.indices)
            for object in objects { pendingNotice.queueUpdate(object, slots: every) }
        }
        for (entityName, keys) in insertedKeys {
            // Objects this context holds already were read by a fetch that ran after the
            // commit but before this merge: its observers have not heard of them either.
            guard let entity = model.entity(named: entityName), let objects = try? readObjects(entity: entity, keys: keys) else { continue }
            for object in objects where !object.deletedFlag { pendingNotice.queueInsert(object) }
        }
    }

    func markDeletedElsewhere(_ object: ManagedObject) {
        graph.advance()
        object.deletedFlag = true
        // Each test skips hashing when the table is empty: another process's commit can mark
        // every registered object here.
        changeTracker.forgetDeletion(object)
        pendingNotice.cancelUpdate(object)
        // It stays linked to this context: changes made to it, before or after, make the next
        // save fail with a conflict instead of vanishing.
        if object.isChangedSinceRead {
            changeTracker.keepChanged(object)
        } else {
            changeTracker.forgetChange(object)
            object.committedStorage = nil
        }
        pendingNotice.queueDelete(object)
    }

    /// After a gap in the change log or another process's commit: re-reads every registered
    /// object, marking the ones that are gone.
    func refreshAllRegisteredObjects() {
        for entity in model.entities {
            guard let objects = registry.held(entity), !objects.byKey.isEmpty else { continue }
            let gone: [Int64]
            do {
                if let scanned = try rereadRegisteredObjectsByScan(entity: entity) {
                    gone = scanned
                } else {
                    let keys = objects.byKey.allKeys.sorted()
                    let found = Set(try readObjects(entity: entity, keys: keys).map(\.objectID.key))
                    gone = keys.filter { !found.contains($0) }
                }
            } catch {
                continue
            }
            markDeletedElsewhere(keys: gone, of: objects)
        }
    }

    /// Marks the registered objects with `keys` deleted and forgets them, touching each object
    /// once (another process replacing every row makes them 100,000).
    private func markDeletedElsewhere(keys: [Int64], of objects: EntityObjects) {
        guard !keys.isEmpty else { return }
        pendingNotice.reserveDeletes(keys.count)
        if keys.count == objects.byKey.count {
            objects.byKey.drain { markDeletedElsewhere($0) }   // every one gone: no lookup each
        } else {
            for key in keys {
                if let object = objects.byKey.removeValue(forKey: key) { markDeletedElsewhere(object) }
            }
        }
    }
}
