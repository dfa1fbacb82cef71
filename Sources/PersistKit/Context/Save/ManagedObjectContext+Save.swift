import Foundation

extension ManagedObjectContext {
    /// Saves every change in one SQLite transaction (`BEGIN IMMEDIATE`), or none.
    ///
    /// Validation runs first and reports every problem in one error. When the save fails,
    /// the store and the context are exactly as they were: fix the problem and save again.
    ///
    /// An object another context or process changed since this context read it is combined key
    /// by key: keys only the other save changed keep its values (and this context's object
    /// takes them), keys both changed are a conflict, settled by ``mergePolicy``.
    ///
    /// ```swift
    /// let task = TaskItem(context: context)
    /// task.name = "Buy milk"
    /// do {
    ///     try context.save()
    /// } catch let error as PersistError where error.code == .validation {
    ///     print(error.problems)          // nothing was written; fix and save again
    /// }
    /// ```
    ///
    /// - Throws: ``PersistError`` `.validation` (required value missing, NaN, a value that
    ///   could not be encoded, a value breaking its attribute's rules, an object's own
    ///   `validateForSave()`), `.constraintViolation` (uniqueness, checked against the save's
    ///   other objects and the stored rows, naming both objects; under `.objectTrump` a
    ///   colliding insert updates the stored object instead), `.conflict` (with merge
    ///   policy `.error`: another context or process changed a key this save changes too, or
    ///   deleted an object it changes; the error lists the objects, and each key's stored,
    ///   local and read values in ``PersistError/problems``), `.cannotOpenStore` (another
    ///   process kept the store locked longer than its busy timeout), or an SQLite error.
    public func save() throws {
        if let parent = family.parent { return try push(into: parent) }
        let started = logSink?.logsDebug == true ? LogSink.now() : 0
        refreshRevertedObjects()
        processPendingChanges()
        var pending = pendingSave()
        guard !pending.isEmpty else { return }
        if !pending.deletedElsewhere.isEmpty {
            guard mergePolicy == .storeTrump || mergePolicy == .rollback else {
                throw logConflict(PersistError(.conflict, "Cannot save changes to objects that another context or process deleted",
                                               entity: pending.deletedElsewhere.first?.entity.name,
                                               objectIDs: pending.deletedElsewhere.map(\.objectID), store: store.displayPath))
            }
            logDiscardedChanges(pending.deletedElsewhere)
            // The store's state wins: the deletion stands, the changes made here go.
            discardChanges(toObjectsDeletedElsewhere: pending.deletedElsewhere)
            pending = pendingSave()
            guard !pending.isEmpty else { return }
        }
        try validate(pending.inserts + pending.updates)
        if model.hasRelationships { try validateRelationships(pending) }
        try checkUniqueness(pending)
        let upserts = try planUpserts(pending)
        let result: StoreWriteResult
        do {
            result = try store.write(writePlan(pending, upserts), origin: contextIdentity)
        } catch let error as PersistError where error.code == .conflict {
            throw logConflict(error)
        }
        if logSink != nil { logSave(pending, result, started: started) }
        // Committed: only now does the context change. (Its own entry in the store's log is
        // skipped by origin; the merge position must not move past other contexts' saves.)
        if !result.externalized.isEmpty { takeExternalReferences(result.externalized, inserts: upserts?.written ?? pending.inserts,
                                                                 updates: pending.updates) }
        let plain = upserts == nil && result.upserted.isEmpty && result.settled.isEmpty
        let insertedIDs = family.hasChildren ? pending.inserts.map(\.objectID) : []
        var saved = didSave(pending, upserts, result, registeringInserts: !plain)
        if family.hasChildren { tellChildrenOfSave(inserted: insertedIDs, pending.inserts) }
        if plain {
            pending = PendingSave(inserts: [], updates: [], deletes: [], deletedElsewhere: [])
            registerHeldObjects(&saved)
        }
        // After the inserts are registered: observers that hear of the cleared references may
        // read the inserted rows again (a limited controller refetches), and must find the
        // inserted objects, not make second ones.
        if !result.clearedReferences.isEmpty { rereadClearedReferences(result.clearedReferences) }
        if plain { return }
        if let upserts, !result.upserted.isEmpty || !upserts.folded.isEmpty {
            absorbUpserts(upserts, result)
            processPendingChanges()   // observers see upserted and folded inserts leave, at once
        }
        if !result.settled.isEmpty {
            takeSettledRows(result.settled, deleted: pending.deletes)
            processPendingChanges()
        }
    }

    /// The objects a save writes, and those it must refuse.
    struct PendingSave {
        let inserts: [ManagedObject]
        let updates: [ManagedObject]
        let deletes: [ManagedObject]
        /// Changed here, deleted by another context or process: saving them is a conflict.
        let deletedElsewhere: [ManagedObject]

        var isEmpty: Bool { inserts.isEmpty && updates.isEmpty && deletes.isEmpty && deletedElsewhere.isEmpty }
    }

    func pendingSave() -> PendingSave {
        PendingSave(
            inserts: insertedObjects,
            updates: inRowOrder(changeTracker.changed.values.filter {
                ($0.isUpdated || $0.encodingProblems?.isEmpty == false || $0.related?.problems.isEmpty == false) && !$0.deletedFlag
            }),
            deletes: deletedObjects,
            deletedElsewhere: changeTracker.changed.values.filter { $0.deletedFlag && !changeTracker.isPendingDeletion($0) && $0.isChangedSinceRead })
    }

    /// `objects` by entity, then by primary key: the store updates its rows in the order its
    /// pages hold them. In the changed objects' hash order, a save of more rows than SQLite's
    /// page cache holds dirties its pages at random, spilling and rewriting each many times
    /// (the time of a save of 100,000 links grew with the square of their number).
    private func inRowOrder(_ objects: [ManagedObject]) -> [ManagedObject] {
        guard objects.count > 1 else { return objects }
        return objects.sorted { first, second in
            first.entity === second.entity ? first.objectID.key < second.objectID.key
                : ObjectIdentifier(first.entity) < ObjectIdentifier(second.entity)
        }
    }

    /// What the store writes: every inserted object's values, every updated object's changed
    /// slots, every deleted object's key, each with the version it was read at.
    private func writePlan(_ pending: PendingSave, _ upserts: UpsertPlanning?) -> StoreWritePlan {
        var plan = StoreWritePlan(resolution: mergePolicy.resolution)
        plan.author = transactionAuthor
        plan.contextName = name
        let inserts = upserts?.written ?? pending.inserts
        var index = 0
        while index < inserts.count {
            // One run per stretch of one entity, built here and appended once.
            let entity = inserts[index].entity
            var rows: [ContiguousArray<SQLValue>] = [], keys: [Int64] = []
            rows.reserveCapacity(inserts.count - index)
            keys.reserveCapacity(inserts.count - index)
            while index < inserts.count, inserts[index].entity === entity {
                rows.append(inserts[index].storage)
                keys.append(inserts[index].identityKey)   // the temporary key, without copying the ID
                index += 1
            }
            plan.inserts.append(.init(entity: entity, rows: rows, temporaryKeys: keys))
        }
        if let upserts {
            plan.upserts = upserts.upserts
            plan.aliases = upserts.aliases
            plan.pendingTargets = upserts.pendingTargets
        }
        plan.updates.reserveCapacity(pending.updates.count)
        for object in pending.updates {
            plan.updates.append(.init(entity: object.entity, key: object.objectID.key, version: object.version,
                                      slots: changedSlots(of: object), storage: object.storage, committed: object.committedStorage))
        }
        for object in pending.deletes {
            plan.deletes.append(.init(entity: object.entity, key: object.objectID.key, version: object.version))
        }
        if model.hasRelationships {
            for object in pending.inserts + pending.updates { appendLinks(of: object, to: &plan) }
            for object in pending.deletes { appendUnlinks(of: object, to: &plan) }
            plan.listPartners = listPartners(of: pending)
            dropReferences(toDeletedIn: pending, from: &plan)
        }
        return plan
    }

    /// A deleted object's links in the join tables it owns go with its row (the tables
    /// cascade); they are written as removed links too, so that the save's record names the
    /// partners whose lists changed (other contexts report them, and read them again).
    private func appendUnlinks(of object: ManagedObject, to plan: inout StoreWritePlan) {
        for relationship in object.entity.relationships where relationship.inverseName != nil {
            guard case .joinTable(let table, isOwner: true) = relationship.storage,
                  let contents = toManyContents(of: object, relationship: relationship.index) else { continue }
            let stored = (contents.committed ?? contents.references).filter { $0 > 0 }
            guard !stored.isEmpty else { continue }
            plan.links.append(.init(table: table, owner: object.objectID.key, added: [], removed: stored, ordered: nil))
        }
    }

    /// References to objects this save deletes that no inverse took away (one-way
    /// relationships, `.noAction`) are written as NULL, as SQLite's ON DELETE SET NULL does
    /// for rows already stored: the save's deletes run before its updates and inserts. So are
    /// references to unsaved objects deleted before this save (a temporary key none of its
    /// inserts has): they were never written, and reading them gives nil already.
    private func dropReferences(toDeletedIn pending: PendingSave, from plan: inout StoreWritePlan) {
        var deleted: [String: Set<Int64>] = [:]
        for object in pending.deletes {
            deleted[object.entity.name, default: []].insert(object.objectID.key)
            // A relationship to a parent holds its sub-entities' objects: filed under each.
            for ancestor in object.entity.inheritance?.ancestorNames ?? [] { deleted[ancestor, default: []].insert(object.objectID.key) }
        }
        func gone(_ reference: Int64, _ entityName: String) -> Bool {
            reference < 0 ? !isPendingInsert(reference) : deleted[entityName]?.contains(reference) == true
        }
        func dangling(_ entity: EntityDescription, _ slot: Int, _ value: SQLValue) -> Bool {
            guard case .foreignKey(let index) = entity.columns[slot].role, case .integer(let key) = value else { return false }
            return gone(key, entity.relationships[index].destinationEntityName)
        }
        func cleaned(_ entity: EntityDescription, _ storage: ContiguousArray<SQLValue>) -> ContiguousArray<SQLValue>? {
            var result: ContiguousArray<SQLValue>?
            for slot in entity.foreignKeySlots where dangling(entity, slot, storage[slot]) {
                if result == nil { result = storage }
                result?[slot] = .null
                if case .foreignKey(let index) = entity.columns[slot].role,
                   case .foreignKey(_, let positionSlot?) = entity.relationships[index].storage {
                    result?[positionSlot] = .null
                }
            }
            return result
        }
        for run in plan.inserts.indices where !plan.inserts[run].entity.foreignKeySlots.isEmpty {
            let entity = plan.inserts[run].entity
            for row in plan.inserts[run].rows.indices {
                if let fixed = cleaned(entity, plan.inserts[run].rows[row]) { plan.inserts[run].rows[row] = fixed }
            }
        }
        for index in plan.updates.indices where !plan.updates[index].entity.foreignKeySlots.isEmpty {
            let update = plan.updates[index]
            if let fixed = cleaned(update.entity, update.storage) {
                plan.updates[index] = .init(entity: update.entity, key: update.key, version: update.version,
                                            slots: update.slots, storage: fixed, committed: update.committed)
            }
        }
        for index in plan.links.indices {
            let destination = plan.links[index].table.destinationEntity
            plan.links[index].added.removeAll { gone($0, destination) }
            plan.links[index].ordered?.removeAll { gone($0, destination) }
        }
    }

    /// Whether a negative reference is an unsaved insert of this context (not one deleted since).
    private func isPendingInsert(_ reference: Int64) -> Bool {
        registry.insertedObject(temporaryKey: -reference) != nil
    }

    /// The join-table rows an object's owned lists add and remove.
    private func appendLinks(of object: ManagedObject, to plan: inout StoreWritePlan) {
        guard let lists = object.related?.toMany, !lists.isEmpty else { return }
        for (index, contents) in lists.sorted(by: { $0.key < $1.key }) {
            guard let committed = contents.committed, case .joinTable(let table, isOwner: true) = object.entity.relationships[index].storage
            else { continue }
            let before = Set(committed), after = Set(contents.references)
            if table.isOrdered {
                guard committed != contents.references else { continue }
                // The store rewrites the whole list; added and removed name the partners whose
                // side changed, for the history.
                plan.links.append(.init(table: table, owner: reference(to: object), added: contents.references.filter { !before.contains($0) },
                                        removed: committed.filter { !after.contains($0) }, ordered: contents.references))
            } else if before != after {
                plan.links.append(.init(table: table, owner: reference(to: object), added: contents.references.filter { !before.contains($0) },
                                        removed: committed.filter { !after.contains($0) }, ordered: nil))
            }
        }
    }

    /// Refuses a save whose graph breaks a rule: a `.deny` deletion, a count, a refused assignment.
    func validateRelationships(_ pending: PendingSave) throws {
        let problems = relationshipProblems(inserted: pending.inserts, updated: pending.updates, deleted: pending.deletes)
        guard !problems.isEmpty else { return }
        let keys = Set(problems.map(\.key))
        throw PersistError(.validation, problems.count == 1 ? "Cannot save: " + problems[0].problem
                               : "Cannot save: \(problems.count) relationship problems",
                           entity: problems[0].object.entity.name, attribute: keys.count == 1 ? keys.first : nil,
                           objectIDs: problems.map(\.object.objectID), problems: problems.map(\.problem))
    }

    /// After the commit: inserted objects get their permanent IDs and are registered, changed
    /// ones take their saved values as committed, deleted ones leave the context. Inserts that
    /// upserted or folded into another are left to ``absorbUpserts(_:_:)``.
    ///
    /// With `registeringInserts` off, the saved inserts are returned instead, for
    /// ``registerHeldObjects(_:)`` once the save holds them no more.
    private func didSave(_ pending: PendingSave, _ upserts: UpsertPlanning?, _ result: StoreWriteResult,
                         registeringInserts: Bool) -> [ManagedObject] {
        let insertedKeys = result.keys, written = upserts?.written ?? pending.inserts
        let absorbs = !result.upserted.isEmpty || upserts?.folded.isEmpty == false
        var objects: (entity: EntityDescription, registry: EntityObjects)?
        var saved: [ManagedObject] = []
        if !registeringInserts {
            saved.reserveCapacity(written.count)
        } else if let entity = pending.inserts.first?.entity {
            // Grown once, not rehashed step by step while 100,000 objects register.
            let registry = entityObjects(entity)
            registry.byKey.reserveCapacity(registry.byKey.count + pending.inserts.count)
        }
        var permanentKeys: [Int64: Int64] = [:]
        if model.hasRelationships {
            permanentKeys.reserveCapacity(written.count)
            for (object, key) in zip(written, insertedKeys) { permanentKeys[object.objectID.key] = key }
            for (object, winner) in upserts?.folded ?? [] { permanentKeys[object.objectID.key] = permanentKeys[winner.objectID.key] }
            registry.forgetTemporaryKeys()
        }
        for (position, (object, key)) in zip(written, insertedKeys).enumerated() where !absorbs || result.upserted[position] == nil {
            object.objectID = savedObjectID(object.entity, key: key)
            object.insertedFlag = false
            object.version = SchemaSQL.initialRowVersion
            if !registeringInserts {
                saved.append(object)
                continue
            }
            if objects?.entity !== object.entity { objects = (object.entity, entityObjects(object.entity)) }
            objects?.registry.byKey.insert(object, for: key)
        }
        registry.forgetInserts()
        for object in pending.updates { object.version += 1 }
        if model.hasRelationships {
            for object in pending.inserts + pending.updates { makeReferencesPermanent(object, permanentKeys, deduplicating: absorbs) }
            graph.advance()
        }
        for object in changeTracker.changed.values where !object.deletedFlag {
            object.committedStorage = nil
            // Lists changed and changed back were not written, but are saved state now too.
            if let related = object.related { for contents in related.toMany.values { contents.committed = nil } }
        }
        changeTracker.forgetChanges()
        for object in pending.deletes {
            registry.held(object.entity)?.byKey[object.objectID.key] = nil
            object.committedStorage = nil
            object.managedObjectContext = nil
        }
        changeTracker.forgetDeletions()
        return saved
    }

    /// Registers the objects a save inserted that something besides `saved` still holds, and
    /// lets the others go unregistered: they are freed when `saved` is emptied, and entering
    /// them in the identity map only for their `deinit` to take them out again was a sixth
    /// of an insert's cost.
    private func registerHeldObjects(_ saved: inout [ManagedObject]) {
        var held: [ManagedObject] = []
        for index in saved.indices {
            if isKnownUniquelyReferenced(&saved[index]) {
                saved[index].leftUnregistered = true
            } else {
                held.append(saved[index])
            }
        }
        saved.removeAll()
        var objects: (entity: EntityDescription, registry: EntityObjects)?
        for object in held {
            if objects?.entity !== object.entity {
                objects = (object.entity, entityObjects(object.entity))
                objects?.registry.byKey.reserveCapacity((objects?.registry.byKey.count ?? 0) + held.count)
            }
            objects?.registry.byKey.insert(object, for: object.objectID.key)
        }
    }

    /// After a save: references to objects it inserted become their primary keys; owned lists
    /// become the saved state. After upserts, two references may have become one row's.
    private func makeReferencesPermanent(_ object: ManagedObject, _ permanentKeys: [Int64: Int64], deduplicating: Bool) {
        for slot in object.entity.foreignKeySlots {
            guard case .integer(let reference) = object.storage[slot], reference < 0 else { continue }
            // No key: an unsaved object deleted before the save, written as NULL.
            let key = permanentKeys[-reference]
            object.storage[slot] = key.map(SQLValue.integer) ?? .null
            if key == nil, case .foreignKey(let index) = object.entity.columns[slot].role,
               case .foreignKey(_, let positionSlot?) = object.entity.relationships[index].storage {
                object.storage[positionSlot] = .null
            }
        }
        guard let related = object.related else { return }
        if !related.problems.isEmpty { related.problems.removeAll() }
        for contents in related.toMany.values {
            contents.references = contents.references.compactMap { $0 < 0 ? permanentKeys[-$0] : $0 }
            if deduplicating {
                var seen = Set<Int64>()
                contents.references = contents.references.filter { seen.insert($0).inserted }
            }
            contents.committed = nil
        }
    }

    /// Objects changed and then set back to what was read have nothing to save, but another
    /// context may have saved newer values meanwhile (a merge keeps local changes): read them
    /// again so the context and its observers show what the store holds.
    private func refreshRevertedObjects() {
        var keysByEntity: [ObjectIdentifier: (EntityDescription, [Int64])] = [:]
        for object in changeTracker.changed.values where !object.deletedFlag && !object.isChangedSinceRead && object.encodingProblems == nil {
            object.committedStorage = nil
            if let related = object.related { for contents in related.toMany.values { contents.committed = nil } }
            changeTracker.forgetChange(object)
            object.version = -1
            keysByEntity[ObjectIdentifier(object.entity), default: (object.entity, [])].1.append(object.objectID.key)
        }
        for (entity, keys) in keysByEntity.values {
            _ = try? readObjects(entity: entity, keys: keys.sorted())
        }
    }

    /// Checks every object to save and throws one `.validation` error listing every problem.
    func validate(_ objects: [ManagedObject]) throws {
        var problems: [String] = []
        var involved: [ObjectID] = []
        var ownErrors: [PersistError] = []
        var keys = Set<String>()
        // Whether objects of an entity may be saved: it is the model's, and not abstract.
        var modelled: [ObjectIdentifier: Bool] = [:]
        var lastEntity: EntityDescription?
        var lastSavable = false
        for object in objects {
            let before = problems.count
            let entity = object.entity
            let savable: Bool
            if entity === lastEntity {
                savable = lastSavable
            } else if let known = modelled[ObjectIdentifier(entity)] {
                savable = known
            } else {
                savable = model.entity(named: entity.name) === entity && !entity.isAbstract
                modelled[ObjectIdentifier(entity)] = savable
            }
            // Objects come in runs of one entity: no dictionary lookup per object.
            lastEntity = entity
            lastSavable = savable
            if !savable {
                problems.append(entity.isAbstract && model.entity(named: entity.name) === entity
                    ? "\(entity.name) is abstract and cannot be inserted: insert one of its sub-entities ("
                        + entity.subentityNames.joined(separator: ", ") + ")"
                    : "\(entity.name) is not an entity of this context's model")
            }
            if mayHaveValueProblems(object) {
                for (key, problem) in valueProblems(of: object) {
                    keys.insert(key)
                    problems.append(problem)
                }
            }
            do {
                try object.validateForSave()
            } catch let error as PersistError {
                ownErrors.append(error)
                problems.append(contentsOf: error.problems.isEmpty ? [error.message] : error.problems)
            } catch {
                problems.append("\(entity.name): \(error)")
            }
            if problems.count > before { involved.append(object.objectID) }
        }
        guard !problems.isEmpty else { return }
        if problems.count == 1, let single = ownErrors.first, ownErrors.count == 1 {
            var error = single
            error.entity = error.entity ?? objects.first(where: { involved.contains($0.objectID) })?.entity.name
            error.objectIDs = involved
            if error.problems.isEmpty { error.problems = problems }
            throw error
        }
        let message = problems.count == 1 ? "Cannot save: " + problems[0]
            : "Cannot save: \(problems.count) validation problems"
        // One key named only when every problem is about it (and none came from validateForSave).
        throw PersistError(.validation, message, entity: objects.first(where: { involved.contains($0.objectID) })?.entity.name,
                           attribute: keys.count == 1 && ownErrors.isEmpty && modelled.values.allSatisfy { $0 } ? keys.first : nil,
                           objectIDs: involved, problems: problems)
    }

    /// Whether ``valueProblems(of:)`` may find something: false for the common object with
    /// every required value set, no NaN and no declared rules, checked without allocating.
    @inline(__always)
    func mayHaveValueProblems(_ object: ManagedObject) -> Bool {
        let entity = object.entity
        if object.encodingProblems != nil || !entity.validators.isEmpty { return true }
        return object.storage.withUnsafeBufferPointer { storage in
            for slot in entity.requiredSlots where slot < storage.count {
                if case .null = storage[slot] { return true }
            }
            for slot in entity.realSlots where slot < storage.count {
                if case .real(let number) = storage[slot], number.isNaN { return true }
            }
            return false
        }
    }

    /// What is wrong with an object's values: a required one missing, a NaN, one that could not
    /// be encoded, one that breaks its attribute's declared rules; each with its key.
    func valueProblems(of object: ManagedObject) -> [(key: String, problem: String)] {
        let entity = object.entity
        let storage = object.storage
        var problems: [(key: String, problem: String)] = []
        func add(_ slot: Int, _ problem: String) {
            let key = entity.attributes[slot].name
            problems.append((key, "\(entity.name).\(key) " + problem))
        }
        for slot in entity.requiredSlots where slot < storage.count && storage[slot].isNull {
            add(slot, "is required but not set")
        }
        for slot in entity.realSlots where slot < storage.count {
            if case .real(let number) = storage[slot], number.isNaN { add(slot, "is NaN, which SQLite cannot store") }
        }
        if let encodingProblems = object.encodingProblems {
            for (slot, problem) in encodingProblems.sorted(by: { $0.key < $1.key }) where slot < entity.attributes.count {
                add(slot, "could not be encoded: \(problem)")
            }
        }
        for validator in entity.validators where validator.slot < storage.count {
            for problem in validator.problems(with: storage[validator.slot]) {
                problems.append((validator.attribute.name, problem))
            }
        }
        return problems
    }

    func changedSlots(of object: ManagedObject) -> [Int] {
        guard let committed = object.committedStorage else { return [] }
        let storage = object.storage
        // One allocation (a filter grows its result step by step), and no copy of the values.
        var slots: [Int] = []
        slots.reserveCapacity(storage.count)
        committed.withUnsafeBufferPointer { committed in
            storage.withUnsafeBufferPointer { storage in
                for slot in storage.indices where slot >= committed.count || !SQLValue.identical(committed[slot], storage[slot]) {
                    slots.append(slot)
                }
            }
        }
        return slots
    }

    func changedKeyNames(of object: ManagedObject) -> [String] {
        changedSlots(of: object).map { object.entity.attributes[$0].name }
    }
}

extension ManagedObject {
    /// Whether the object has values (or owned relationship lists) that differ from those last
    /// read, or a refused relationship assignment to report.
    var isChangedSinceRead: Bool {
        if let related, related.hasChanges || !related.problems.isEmpty { return true }
        guard let committed = committedStorage else { return false }
        return !SQLValue.identical(committed, storage)
    }
}
