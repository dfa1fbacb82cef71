/// Child contexts: scratchpad editing over another context, as Core Data's nested contexts.
extension ManagedObjectContext {
    /// A new context whose parent is this one, for edits that can be cancelled (an edit sheet).
    ///
    /// The child starts from what this context holds now: its unsaved inserts, changes and
    /// deletions, over the store. A fetch in the child sees them (and its own edits), and
    /// each object it returns is the child's own instance. The child's ``save()`` pushes its
    /// edits into this context as this context's unsaved changes, heard by its observers and
    /// controllers as one change; nothing reaches the store until this context saves. Drop the
    /// child unsaved to cancel. Children nest to any depth.
    ///
    /// ```swift
    /// let sheet = try context.newChildContext()
    /// let draft = try sheet.existingObject(with: task.objectID) as! TaskItem
    /// draft.name = "Buy oat milk"
    /// try sheet.save()          // context now has the change, unsaved
    /// try context.save()        // written to the store
    /// ```
    ///
    /// Objects the child inserts keep their IDs in the parent, and once the parent saves they
    /// answer their permanent IDs in the child too. Validation and uniqueness run at the
    /// child's save against what the child sees (the parent's unsaved state and the store).
    /// An object the parent deleted after the child took it makes the child's save throw
    /// `.conflict`, changing nothing.
    ///
    /// The child lives where its parent does (a context is not `Sendable`); the parent's
    /// unsaved changes made after the child was made are not seen by the child's objects or
    /// fetches (make a new child to see them).
    ///
    /// - Throws: ``PersistError`` if an object the parent changed can no longer be read from
    ///   the store.
    public func newChildContext() throws -> ManagedObjectContext {
        let child = ManagedObjectContext(store: store)
        child.mergePolicy = mergePolicy
        child.automaticallyMergesChanges = automaticallyMergesChanges
        child.isObservable = isObservable
        child.family.setParent(self)
        try child.takeParentState()
        family.addChild(child)
        return child
    }

    /// The context a child context's saves go into; nil for a context over the store.
    ///
    /// ```swift
    /// let sheet = try context.newChildContext()
    /// print(sheet.parentContext === context)    // true
    /// ```
    public var parentContext: ManagedObjectContext? { family.parent }

    /// Takes the parent's unsaved state as this child's starting point (its baselines).
    func takeParentState() throws {
        guard let parent = family.parent else { return }
        parent.processPendingChanges()
        try applyEdits(parent.pendingEdits(relativeToBaselines: false).edits)
        // What the child starts from is no change of the child's: nobody hears it.
        processPendingChanges()
        takeBaselines()
    }

    /// After a rollback or reset: the child starts again from its parent's state as it is now
    /// (Core Data's child shows its parent's state after a rollback). If the parent's state
    /// cannot be read, the child shows the store's, and its next save pushes only what it
    /// then changes.
    func takeParentStateAgain() {
        do {
            try takeParentState()
        } catch {
            family.forgetBaselines()
            logParentStateUnreadable(error)
        }
    }

    /// Records every object that differs from the store as the parent now holds it.
    private func takeBaselines() {
        family.forgetBaselines()
        var objects = registry.insertedOrder.filter(\.insertedFlag)
        objects += changeTracker.changed.values.filter { !$0.deletedFlag || changeTracker.isPendingDeletion($0) }
        for object in changeTracker.deleted.values where object.committedStorage == nil { objects.append(object) }
        for object in objects {
            var lists: [Int: [Int64]] = [:]
            if let related = object.related {
                for relationship in object.entity.relationships {
                    guard case .joinTable(_, isOwner: true) = relationship.storage,
                          let contents = related.toMany[relationship.index] else { continue }
                    lists[relationship.index] = contents.references
                }
            }
            family.setBaseline(.init(object: object, storage: object.storage, lists: lists, wasInserted: object.insertedFlag,
                                     wasDeleted: changeTracker.isPendingDeletion(object)))
        }
    }

    /// A child's save: its edits are checked as a save checks them, then applied to the
    /// parent through its ordinary change paths, and the parent's observers hear them as one
    /// change. If anything throws, neither context changed.
    func push(into parent: ManagedObjectContext) throws {
        processPendingChanges()
        let (edits, objects) = pendingEdits(relativeToBaselines: true)
        guard !edits.isEmpty else { return }
        try validate(objects.inserted + objects.updated)
        if model.hasRelationships {
            try validateRelationships(PendingSave(inserts: objects.inserted, updates: objects.updated, deletes: objects.deleted,
                                                  deletedElsewhere: []))
        }
        // Uniqueness over everything the child sees: the parent's unsaved objects are its too.
        try checkUniqueness(pendingSave())
        try parent.applyEdits(edits)
        parent.processPendingChanges()
        takeBaselines()
    }

    /// After this context's save: its children's objects for the inserts it saved take their
    /// permanent IDs, and references to them become keys.
    func tellChildrenOfSave(inserted temporaryIDs: [ObjectID], _ inserts: [ManagedObject]) {
        var permanentKeys: [Int64: Int64] = [:]
        for (id, object) in zip(temporaryIDs, inserts) where !object.objectID.isTemporary {
            permanentKeys[id.key] = object.objectID.key
        }
        for child in family.liveChildren { child.parentDidSave(permanentKeys) }
    }

    /// The parent saved: the objects that were its inserts are saved objects here too (with
    /// the child's own edits still pending on them), under their permanent IDs.
    private func parentDidSave(_ permanentKeys: [Int64: Int64]) {
        defer { for child in family.liveChildren { child.parentDidSave(permanentKeys) } }
        guard !permanentKeys.isEmpty else { return }
        var remaining: [ManagedObject] = []
        var saved: [ManagedObject] = []
        for object in registry.insertedOrder {
            if permanentKeys[object.objectID.key] != nil, object.objectID.isTemporary,
               object.insertedFlag || family.baseline(of: object)?.wasInserted == true {
                saved.append(object)
            } else if object.insertedFlag {
                remaining.append(object)
            }
        }
        guard !saved.isEmpty else { return }
        registry.forgetInserts()
        for object in remaining { registry.noteInsert(object, temporaryKey: model.hasRelationships ? object.objectID.key : nil) }
        for object in saved {
            guard let key = permanentKeys[object.objectID.key] else { continue }
            let deletedHere = !object.insertedFlag
            object.objectID = savedObjectID(object.entity, key: key)
            object.insertedFlag = false
            object.version = SchemaSQL.initialRowVersion
            entityObjects(object.entity).byKey.insert(object, for: key)
            if deletedHere {
                // Deleted here before the parent saved it: a pending deletion of a saved object now.
                object.managedObjectContext = self
                changeTracker.noteDeleted(object)
            }
        }
        if model.hasRelationships {
            for object in registeredObjects { makeReferencesPermanent(inChild: object, permanentKeys) }
            for object in saved { makeReferencesPermanent(inChild: object, permanentKeys) }
            graph.advance()
        }
        family.makeBaselinesPermanent(permanentKeys) { $0.entity.foreignKeySlots }
        for object in saved where !object.deletedFlag {
            // What the parent saved is the committed state; the child's own edits stay pending.
            guard let baseline = family.baseline(of: object) else { continue }
            var edited = !baseline.storage.elementsEqual(object.storage, by: SQLValue.identical)
            for (index, contents) in object.related?.toMany ?? [:] {
                let committed = baseline.lists[index] ?? contents.committed
                contents.committed = committed == contents.references ? nil : committed
                if contents.committed != nil { edited = true }
            }
            if edited {
                object.committedStorage = baseline.storage
                changeTracker.keepChanged(object)
            }
        }
    }

    /// References to the parent's saved inserts become their keys, in values, snapshots and lists.
    private func makeReferencesPermanent(inChild object: ManagedObject, _ permanentKeys: [Int64: Int64]) {
        func permanent(_ storage: ContiguousArray<SQLValue>) -> ContiguousArray<SQLValue>? {
            var result: ContiguousArray<SQLValue>?
            for slot in object.entity.foreignKeySlots {
                guard case .integer(let reference) = storage[slot], reference < 0, let key = permanentKeys[-reference] else { continue }
                if result == nil { result = storage }
                result?[slot] = .integer(key)
            }
            return result
        }
        if let storage = permanent(object.storage) { object.storage = storage }
        if let committed = object.committedStorage, let storage = permanent(committed) { object.committedStorage = storage }
        guard let related = object.related else { return }
        for contents in related.toMany.values {
            if contents.references.contains(where: { $0 < 0 }) {
                contents.references = contents.references.map { $0 < 0 ? permanentKeys[-$0] ?? $0 : $0 }
            }
            if let committed = contents.committed, committed.contains(where: { $0 < 0 }) {
                contents.committed = committed.map { $0 < 0 ? permanentKeys[-$0] ?? $0 : $0 }
            }
        }
    }
}
