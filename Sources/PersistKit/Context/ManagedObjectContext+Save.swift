import Foundation

extension ManagedObjectContext {
    /// Saves every change in one SQLite transaction (`BEGIN IMMEDIATE`), or none.
    ///
    /// Validation runs first and reports every problem in one error. When the save fails,
    /// the store and the context are exactly as they were: fix the problem and save again.
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
    ///   other objects and the stored rows, naming both objects), `.conflict` (another
    ///   context or process changed or deleted an object since this context read it), or an
    ///   SQLite error.
    public func save() throws {
        refreshRevertedObjects()
        processPendingChanges()
        let pending = pendingSave()
        guard !pending.isEmpty else { return }
        if !pending.deletedElsewhere.isEmpty {
            throw PersistError(.conflict, "Cannot save changes to objects that another context or process deleted",
                               entity: pending.deletedElsewhere.first?.entity.name,
                               objectIDs: pending.deletedElsewhere.map(\.objectID))
        }
        try validate(pending.inserts + pending.updates)
        try checkUniqueness(pending)
        let insertedKeys = try store.write(writePlan(pending), origin: contextIdentity)
        // Committed: only now does the context change. (Its own entry in the store's log is
        // skipped by origin; the merge position must not move past other contexts' saves.)
        didSave(pending, insertedKeys: insertedKeys)
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

    private func pendingSave() -> PendingSave {
        PendingSave(
            inserts: insertedObjects,
            updates: changed.values.filter { ($0.isUpdated || $0.encodingProblems?.isEmpty == false) && !$0.deletedFlag },
            deletes: deletedObjects,
            deletedElsewhere: changed.values.filter { $0.deletedFlag && deleted[ObjectIdentifier($0)] == nil && $0.isChangedSinceRead })
    }

    /// What the store writes: every inserted object's values, every updated object's changed
    /// slots, every deleted object's key, each with the version it was read at.
    private func writePlan(_ pending: PendingSave) -> StoreWritePlan {
        var plan = StoreWritePlan(checksVersions: mergePolicy == .error)
        for (index, object) in pending.inserts.enumerated() {
            plan.insert(object.storage, of: object.entity, upTo: pending.inserts.count - index)
        }
        plan.updates.reserveCapacity(pending.updates.count)
        for object in pending.updates {
            plan.updates.append(.init(entity: object.entity, key: object.objectID.key, version: object.version,
                                      slots: changedSlots(of: object), storage: object.storage))
        }
        for object in pending.deletes {
            plan.deletes.append(.init(entity: object.entity, key: object.objectID.key, version: object.version))
        }
        return plan
    }

    /// After the commit: inserted objects get their permanent IDs and are registered, changed
    /// ones take their saved values as committed, deleted ones leave the context.
    private func didSave(_ pending: PendingSave, insertedKeys: [Int64]) {
        var objects: (entity: EntityDescription, registry: EntityObjects)?
        if let entity = pending.inserts.first?.entity {
            // Grown once, not rehashed step by step while 100,000 objects register.
            let registry = entityObjects(entity)
            registry.byKey.reserveCapacity(registry.byKey.count + pending.inserts.count)
        }
        for (object, key) in zip(pending.inserts, insertedKeys) {
            object.objectID = ObjectID(entityName: object.entity.name, storeIdentifier: store.identifier, key: key, isTemporary: false)
            object.insertedFlag = false
            object.version = 1
            if objects?.entity !== object.entity { objects = (object.entity, entityObjects(object.entity)) }
            objects?.registry.byKey[key] = object
        }
        insertedOrder.removeAll(keepingCapacity: false)
        insertedCount = 0
        for object in pending.updates { object.version += 1 }
        for object in changed.values where !object.deletedFlag { object.committedStorage = nil }
        changed.removeAll()
        for object in pending.deletes {
            registered[ObjectIdentifier(object.entity)]?.byKey[object.objectID.key] = nil
            object.committedStorage = nil
            object.managedObjectContext = nil
        }
        deleted.removeAll()
    }

    /// Objects changed and then set back to what was read have nothing to save, but another
    /// context may have saved newer values meanwhile (a merge keeps local changes): read them
    /// again so the context and its observers show what the store holds.
    private func refreshRevertedObjects() {
        var keysByEntity: [ObjectIdentifier: (EntityDescription, [Int64])] = [:]
        for object in changed.values where !object.deletedFlag && !object.isChangedSinceRead && object.encodingProblems == nil {
            object.committedStorage = nil
            changed[ObjectIdentifier(object)] = nil
            object.version = -1
            keysByEntity[ObjectIdentifier(object.entity), default: (object.entity, [])].1.append(object.objectID.key)
        }
        for (entity, keys) in keysByEntity.values {
            _ = try? readObjects(entity: entity, keys: keys.sorted())
        }
    }

    /// Checks every object to save and throws one `.validation` error listing every problem.
    private func validate(_ objects: [ManagedObject]) throws {
        var problems: [String] = []
        var involved: [ObjectID] = []
        var ownErrors: [PersistError] = []
        var keys = Set<String>()
        var modelled: [ObjectIdentifier: Bool] = [:]
        for object in objects {
            let before = problems.count
            let entity = object.entity
            let inModel: Bool
            if let known = modelled[ObjectIdentifier(entity)] {
                inModel = known
            } else {
                inModel = model.entity(named: entity.name) === entity
                modelled[ObjectIdentifier(entity)] = inModel
            }
            if !inModel {
                problems.append("\(entity.name) is not an entity of this context's model")
            }
            for (key, problem) in valueProblems(of: object) {
                keys.insert(key)
                problems.append(problem)
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

    /// What is wrong with an object's values: a required one missing, a NaN, one that could not
    /// be encoded, one that breaks its attribute's declared rules; each with its key.
    private func valueProblems(of object: ManagedObject) -> [(key: String, problem: String)] {
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
        return object.storage.indices.filter { !SQLValue.identical(committed[$0], object.storage[$0]) }
    }

    func changedKeyNames(of object: ManagedObject) -> [String] {
        changedSlots(of: object).map { object.entity.attributes[$0].name }
    }
}

extension ManagedObject {
    /// Whether the object has values that differ from those last read.
    var isChangedSinceRead: Bool {
        guard let committed = committedStorage else { return false }
        return !SQLValue.identical(committed, storage)
    }
}
