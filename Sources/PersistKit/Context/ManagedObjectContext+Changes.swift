extension ManagedObjectContext {
    /// This context's identity in the store's change log.
    var contextIdentity: Int { Int(bitPattern: UInt(bitPattern: ObjectIdentifier(self))) }

    /// Merges what other contexts (and processes) saved, then hands observers one notice of
    /// everything that changed since the last one. Save and fetch run it first.
    ///
    /// Called from inside an observer it does nothing: changes made there are delivered by the
    /// next call, never as a nested or torn notice.
    ///
    /// ```swift
    /// let token = context.addObserver { changes in print(changes.updated.count, "updated") }
    /// task.isComplete = true
    /// context.processPendingChanges()   // the observer hears of the change now, not at the next save
    /// ```
    public func processPendingChanges() {
        guard !isProcessingChanges else { return }
        if automaticallyMergesChanges { mergeChangesFromStore() }
        if !pendingNotice.partners.isEmpty { queueChangedPartners() }
        guard !pendingNotice.isEmpty else { return }
        guard !observers.isEmpty else {
            // Nobody to tell: forget the queue without building a notice.
            pendingNotice.discard()
            return
        }
        let notice = pendingNotice.take()
        isProcessingChanges = true
        defer { isProcessingChanges = false }
        for id in observers.keys.sorted() {
            observers[id]?(notice)
        }
    }

    /// Pulls other contexts' saves from the store's log and refreshes the objects they touched.
    func mergeChangesFromStore() {
        let (changes, complete, latest) = store.changes(after: lastMergedSequence, excluding: contextIdentity)
        lastMergedSequence = latest
        let lastMerge = mergeCount
        mergeCount &+= 1
        guard !changes.isEmpty || !complete else { return }
        if logSink != nil { logMerge(changes, complete: complete) }
        // Rows inserted, deleted or relinked elsewhere change derived to-manys (a project's
        // tasks) even when this context holds none of them: those are computed again when read.
        if !complete || changes.contains(where: { change in
            !change.inserted.isEmpty || !change.deleted.isEmpty
                || change.updated.keys.contains { model.entity(named: $0)?.relationships.isEmpty == false }
        }) {
            graphGeneration &+= 1
        }
        if !complete || prefersRefreshingAll(after: changes) {
            refreshAllRegisteredObjects()
            pendingNotice.invalidatedAll = true
            return
        }
        var updatedKeys: [String: Set<Int64>] = [:]
        var insertedKeys: [String: [Int64]] = [:]
        for change in changes {
            for (entity, keys) in change.updated { updatedKeys[entity, default: []].formUnion(keys) }
            for (entity, keys) in change.inserted { insertedKeys[entity, default: []].append(contentsOf: keys) }
            for (entityName, keys) in change.deleted {
                let objects = model.entity(named: entityName).flatMap { registered[ObjectIdentifier($0)] }
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
            let objects = registered[ObjectIdentifier(entity)]
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

    private func markDeletedElsewhere(_ object: ManagedObject) {
        graphGeneration &+= 1
        let id = ObjectIdentifier(object)
        object.deletedFlag = true
        // Each test skips hashing when the table is empty: another process's commit can mark
        // every registered object here.
        if !deleted.isEmpty { deleted[id] = nil }
        pendingNotice.cancelUpdate(object)
        // It stays linked to this context: changes made to it, before or after, make the next
        // save fail with a conflict instead of vanishing.
        if object.isChangedSinceRead {
            changed[id] = object
        } else {
            if !changed.isEmpty { changed[id] = nil }
            object.committedStorage = nil
        }
        pendingNotice.queueDelete(object)
    }

    /// After a gap in the change log or another process's commit: re-reads every registered
    /// object, marking the ones that are gone.
    func refreshAllRegisteredObjects() {
        for entity in model.entities {
            guard let objects = registered[ObjectIdentifier(entity)], !objects.byKey.isEmpty else { continue }
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

    /// Discards every unsaved change: inserted objects are dropped, changed ones get their
    /// saved values back, deleted ones return. Observers are told at once.
    ///
    /// ```swift
    /// task.name = "Typo"
    /// context.delete(other)
    /// context.rollback()                // task has its saved name again; other is no longer deleted
    /// ```
    public func rollback() {
        for object in insertedObjects where !object.entity.relationships.isEmpty { noteLinksOfDiscardedInsert(object) }
        for object in insertedObjects {
            object.insertedFlag = false
            object.deletedFlag = true
            object.managedObjectContext = nil
            if !pendingNotice.cancelInsert(object) { pendingNotice.queueDelete(object) }
            pendingNotice.cancelUpdate(object)
        }
        insertedOrder.removeAll()
        insertedCount = 0
        insertedByTemporaryKey.removeAll()
        graphGeneration &+= 1
        var rolledBackLists: [(object: ManagedObject, lists: [Int: [Int64]])] = []
        // Where the objects' to-ones pointed, and the deleted objects that return: the lists of
        // the objects they leave or join change too.
        let targetsBefore = model.hasRelationships ? changed.values.compactMap(toManyTargets) : []
        let restored = model.hasRelationships ? Array(deleted.values) : []
        for object in changed.values {
            if let related = object.related {
                let lists = rollBackRelationships(of: object, related)
                if !lists.isEmpty { rolledBackLists.append((object, lists)) }
            }
            guard let committed = object.committedStorage else { continue }
            let id = ObjectIdentifier(object)
            let slots = SlotSet(committed.indices.filter { !SQLValue.identical(committed[$0], object.storage[$0]) })
            object.storage = committed
            object.committedStorage = nil
            object.encodingProblems = nil
            if object.deletedFlag && deleted[id] == nil {
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
        for object in changed.values where !object.deletedFlag || deleted[ObjectIdentifier(object)] != nil {
            reverted[ObjectIdentifier(object.entity), default: (object.entity, [])].1.insert(object.objectID.key)
        }
        changed.removeAll()
        for object in deleted.values {
            object.deletedFlag = false
            if !pendingNotice.cancelDelete(object) { pendingNotice.queueInsert(object) }
            reverted[ObjectIdentifier(object.entity), default: (object.entity, [])].1.insert(object.objectID.key)
        }
        deleted.removeAll()
        for (entity, keys) in reverted.values {
            for key in keys { registered[ObjectIdentifier(entity)]?.byKey[key]?.version = -1 }
            let found = (try? readObjects(entity: entity, keys: keys.sorted())) ?? []
            // Gone from the store meanwhile: deleted elsewhere.
            let present = Set(found.map(\.objectID.key))
            for key in keys where !present.contains(key) {
                if let object = registered[ObjectIdentifier(entity)]?.byKey.removeValue(forKey: key) {
                    pendingNotice.cancelInsert(object)
                    markDeletedElsewhere(object)
                }
            }
        }
        for (object, lists) in rolledBackLists where !object.deletedFlag { noteStoredListChanges(of: object, from: lists) }
        for (object, before) in targetsBefore where !object.deletedFlag { noteToManyTargets(of: object, changedFrom: before) }
        for object in restored where !object.deletedFlag { noteToManyTargets(of: object, changedFrom: [:]) }
        processPendingChanges()
    }

    /// Forgets every object and change: objects handed out before are detached (they keep
    /// their values; saving them is impossible). Observers are told to refetch.
    ///
    /// ```swift
    /// context.reset()
    /// let tasks = try context.fetch(FetchRequest<TaskItem>())   // new instances, read from the store
    /// ```
    public func reset() {
        resetCount &+= 1
        for objects in registered.values {
            for object in objects.byKey.values { object.managedObjectContext = nil }
        }
        for object in insertedOrder { object.managedObjectContext = nil }
        registered.removeAll()
        insertedOrder.removeAll()
        insertedCount = 0
        insertedByTemporaryKey.removeAll()
        graphGeneration &+= 1
        changed.removeAll()
        deleted.removeAll()
        pendingNotice.discard()
        pendingNotice.invalidatedAll = true
        lastMergedSequence = store.currentSequence
        processPendingChanges()
    }

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
        let id = ObjectIdentifier(object)
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
        graphGeneration &+= 1
        if mergeChanges && !local.isEmpty {
            refreshKeeping(local, of: object)
            return
        }
        if !mergeChanges, let committed = object.committedStorage {
            noteRefreshed(object, newStorage: committed)
            object.committedStorage = nil
            changed[id] = nil
        }
        object.committedStorage = nil
        changed[id] = nil
        object.version = -1   // forces the read below to replace the values
        let found = (try? readObjects(entity: object.entity, keys: [object.objectID.key])) ?? []
        if found.isEmpty {
            registered[ObjectIdentifier(object.entity)]?.byKey[object.objectID.key] = nil
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
            changed[ObjectIdentifier(object)] = nil
            registered[ObjectIdentifier(object.entity)]?.byKey[object.objectID.key] = nil
            markDeletedElsewhere(object)
            return
        }
        var merged = row.storage
        for (slot, value) in local { merged[slot] = value }
        noteRefreshed(object, newStorage: merged)
        object.committedStorage = row.storage
        changed[ObjectIdentifier(object)] = object
        object.version = row.version
        graphGeneration &+= 1
    }
}
