extension ManagedObjectContext {
    /// A fetch request resolved against the context's model.
    struct FetchPlan {
        let entity: EntityDescription
        /// The part the store runs in SQL.
        let query: StoreQuery
        let sorts: [ResolvedSort]
        let evaluator: PredicateEvaluator?
        let limit: Int
        let offset: Int
        /// The relationships the predicate and sorts read through (empty when they read the
        /// object's own attributes only).
        let relationshipChains: [[PredicateKey.Hop]]
        /// For a request that reads sub-entities, one plan per entity whose objects it returns
        /// (see ``ManagedObjectContext/plan(_:)``); empty for a request of one entity.
        var parts: [FetchPlan] = []

        /// Whether the plan reads objects of `entity` (its own, or one of its parts').
        func reads(_ entity: EntityDescription) -> Bool {
            parts.isEmpty ? entity === self.entity : parts.contains { $0.entity === entity }
        }

        /// Whether `object`, of an entity the plan reads, satisfies the predicate as resolved
        /// for its entity (its part's, for a plan with parts).
        func matchesAsItsEntity(_ object: ManagedObject) throws(PersistError) -> Bool {
            guard !parts.isEmpty else { return try matches(object) }
            guard let part = parts.first(where: { $0.entity === object.entity }) else { return false }
            return try part.matches(object)
        }

        /// Orders two objects as the SQL `ORDER BY` does, ties broken by identity.
        func areInIncreasingOrder(_ a: ManagedObject, _ b: ManagedObject) -> Bool {
            for sort in sorts {
                let order = sort.compare(sort.value(of: a), sort.value(of: b))
                if order != 0 { return order < 0 }
            }
            return ManagedObject.tiebreak(a, b) < 0
        }

        /// Two lists, each in the request's order, as one in that order (the first's object
        /// first on a tie).
        func interleave(_ first: [ManagedObject], _ second: [ManagedObject]) -> [ManagedObject] {
            var interleaved: [ManagedObject] = []
            interleaved.reserveCapacity(first.count + second.count)
            var i = 0, j = 0
            while i < first.count || j < second.count {
                if j == second.count || (i < first.count && areInIncreasingOrder(first[i], second[j])) {
                    interleaved.append(first[i]); i += 1
                } else {
                    interleaved.append(second[j]); j += 1
                }
            }
            return interleaved
        }

        /// The request's offset and limit applied to the whole ordered list.
        func window(_ objects: [ManagedObject]) -> [ManagedObject] {
            let start = min(offset, objects.count)
            let end = limit > 0 ? min(objects.count, start + limit) : objects.count
            return Array(objects[start..<end])
        }

        /// Whether `object` satisfies the request's predicate.
        ///
        /// - Throws: ``PersistError`` `.invalidPredicate` when a `MATCHES` runs over its bound.
        func matches(_ object: ManagedObject) throws(PersistError) -> Bool {
            guard let evaluator else { return true }
            return try evaluator.evaluate(object)
        }
    }

    /// The request's plan. A request that reads sub-entities (see
    /// ``FetchRequest/includesSubentities``) gets one part per entity whose objects it returns.
    func plan<T>(_ request: FetchRequest<T>) throws -> FetchPlan {
        try plan(request, entity: try requestEntity(request), withParts: true)
    }

    /// The request resolved against `entity`; with `withParts`, and when the request reads
    /// sub-entities, with one part per entity whose objects it returns (the entity, if not
    /// abstract, and every concrete entity below it), each windowed to the request's
    /// `offset + limit` first objects: the parts are read and merged, the whole windows them.
    private func plan<T>(_ request: FetchRequest<T>, entity: EntityDescription, withParts: Bool) throws -> FetchPlan {
        var whole = try plan(request, entity: entity)
        guard withParts, request.includesSubentities, entity.readsSubentities, let names = entity.inheritance?.concreteEntityNames else {
            return whole
        }
        var part = request
        part.fetchLimit = request.fetchLimit > 0 ? request.fetchOffset + request.fetchLimit : 0
        part.fetchOffset = 0
        whole.parts = try names.compactMap(model.entity(named:)).map { try plan(part, entity: $0) }
        return whole
    }

    func requestEntity<T>(_ request: FetchRequest<T>) throws -> EntityDescription {
        let entity: EntityDescription
        if let name = request.entityName {
            guard let named = model.entity(named: name) else {
                throw PersistError(.invalidRequest, "The model has no entity named \(name)", entity: name)
            }
            entity = named
        } else {
            guard T.self != ManagedObject.self, let classEntity = model.entity(for: T.self) else {
                throw PersistError(.invalidRequest, "\(T.self) is not an entity of this context's model (entities: "
                    + model.entities.map(\.name).joined(separator: ", ") + ")")
            }
            entity = classEntity
        }
        return entity
    }

    /// The request resolved against `entity` (the request's own, or one of its sub-entities).
    private func plan<T>(_ request: FetchRequest<T>, entity: EntityDescription) throws -> FetchPlan {
        guard entity.objectClass is T.Type || T.self == ManagedObject.self else {
            throw PersistError(.invalidRequest, "Entity \(entity.name) holds \(entity.objectClass) objects, not \(T.self)",
                               entity: entity.name)
        }
        guard request.fetchLimit >= 0, request.fetchOffset >= 0 else {
            throw PersistError(.invalidRequest, "fetchLimit and fetchOffset cannot be negative", entity: entity.name)
        }
        let sorts = try request.sortDescriptors.map { try ResolvedSort($0, entity: entity) }
        let query = try StoreQuery(entity: entity, predicate: request.predicate?.node, sorts: sorts)
        let evaluator = try request.predicate.map { try PredicateEvaluator(node: $0.node, entity: entity) }
        var chains = sorts.map(\.hops).filter { !$0.isEmpty }
        if let predicate = request.predicate, evaluator?.readsRelationships == true {
            chains = PredicateKey.maximalChains(try predicate.node.normalized().relationshipChains(in: entity) + chains)
        }
        return FetchPlan(entity: entity, query: query, sorts: sorts, evaluator: evaluator,
                         limit: request.fetchLimit, offset: request.fetchOffset, relationshipChains: chains)
    }

    /// Fetches the objects a request describes, in its order.
    ///
    /// ```swift
    /// let open = try context.fetch(FetchRequest<TaskItem>(predicate: \.isComplete == false,
    ///                                                     sortBy: [FetchSortDescriptor(\.due, nils: .last)]))
    /// ```
    ///
    /// - Throws: ``PersistError`` for an invalid request or predicate, a value in the store
    ///   that does not fit its attribute's type, or an SQLite error.
    public func fetch<T: ManagedObject>(_ request: FetchRequest<T>) throws -> [T] {
        let started = logSink?.logsDebug == true ? LogSink.now() : 0
        processPendingChanges()
        let plan = try self.plan(request)
        let prefetching = try prefetchSteps(request.relationshipKeyPathsForPrefetching, entity: plan.entity)
        let objects = try fetchObjects(plan, includesPendingChanges: request.includesPendingChanges)
        try prefetch(prefetching, for: objects)
        if started != 0 { logFetch(plan, rows: objects.count, started: started) }
        if T.self == ManagedObject.self || plan.entity.objectClass == T.self {
            // Every element is an instance of `T` (the entity's class, or a sub-entity's, which
            // is its subclass): an array of class references has the same layout whatever its
            // static element type.
            return unsafeBitCast(objects, to: [T].self)
        }
        return objects.compactMap { $0 as? T }
    }

    /// The IDs of the objects a request describes, in its order.
    ///
    /// ```swift
    /// let ids = try context.fetchObjectIDs(FetchRequest<TaskItem>(predicate: \.isComplete == true))
    /// Task.detached { for id in ids { worker.process(id) } }   // IDs are Sendable; objects are not
    /// ```
    public func fetchObjectIDs<T: ManagedObject>(_ request: FetchRequest<T>) throws -> [ObjectID] {
        var request = request
        request.relationshipKeyPathsForPrefetching = []   // IDs only: nothing to load
        return try fetch(request).map(\.objectID)
    }

    /// How many objects a request would fetch (its limit and offset applied).
    ///
    /// ```swift
    /// let remaining = try context.count(for: FetchRequest<TaskItem>(predicate: \.isComplete == false))
    /// ```
    public func count<T: ManagedObject>(for request: FetchRequest<T>) throws -> Int {
        let started = logSink?.logsDebug == true ? LogSink.now() : 0
        processPendingChanges()
        let plan = try plan(request)
        let total: Int
        if plan.parts.isEmpty {
            total = try count(plan, includesPendingChanges: request.includesPendingChanges, window: true)
        } else {
            // Each part counts its entity's objects unwindowed; the window applies to the sum.
            var sum = 0
            for part in plan.parts { sum += try count(part, includesPendingChanges: request.includesPendingChanges, window: false) }
            sum = max(0, sum - plan.offset)
            total = plan.limit > 0 ? min(sum, plan.limit) : sum
        }
        if started != 0 { logFetch(plan, rows: total, started: started, what: "count") }
        return total
    }

    /// How many objects a plan reads (windowed by its offset and limit when `window` is true).
    private func count(_ plan: FetchPlan, includesPendingChanges: Bool, window: Bool) throws -> Int {
        let pending = includesPendingChanges ? try pendingObjects(for: plan) : PendingObjects()
        var total: Int
        if pending.inserted.isEmpty && pending.changedOrDeleted.isEmpty {
            total = try store.count(plan.query, excludingKeys: [])
        } else {
            let keys = pending.changedOrDeleted.map { $0.objectID.key }
            total = try store.count(plan.query, excludingKeys: keys)
            total += try pending.inserted.filter(plan.matches).count
            total += try pending.changedOrDeleted.filter { try !$0.deletedFlag && plan.matches($0) }.count
        }
        guard window else { return total }
        total = max(0, total - plan.offset)
        return plan.limit > 0 ? min(total, plan.limit) : total
    }

    /// The objects a plan reads, in its order: for a plan with parts (a fetch with
    /// sub-entities), each part's merged in the request's order (ties by key, which the
    /// entities of a tree share), then windowed.
    func fetchObjects(_ plan: FetchPlan, includesPendingChanges: Bool) throws -> [ManagedObject] {
        guard plan.parts.isEmpty else {
            var merged: [ManagedObject] = []
            for part in plan.parts {
                let objects = try fetchObjects(part, includesPendingChanges: includesPendingChanges)
                merged = merged.isEmpty ? objects : plan.interleave(merged, objects)
            }
            return plan.window(merged)
        }
        let pending = includesPendingChanges ? try pendingObjects(for: plan) : PendingObjects()
        if pending.inserted.isEmpty && pending.changedOrDeleted.isEmpty {
            return try select(plan, limit: plan.limit, offset: plan.offset)
        }
        // Saved rows by their committed values, minus the objects changed here, plus the
        // pending objects that match now; enough rows to fill the window after exclusions.
        let window = plan.limit > 0 ? plan.offset + plan.limit + pending.changedOrDeleted.count : 0
        let excluded = Set(pending.changedOrDeleted.map(ObjectIdentifier.init))
        let saved = try select(plan, limit: window, offset: 0).filter { !excluded.contains(ObjectIdentifier($0)) && !$0.deletedFlag }
        let extra = try (pending.inserted + pending.changedOrDeleted.filter { !$0.deletedFlag })
            .filter(plan.matches)
            .sorted(by: plan.areInIncreasingOrder)
        return plan.window(plan.interleave(saved, extra))
    }

    /// This context's unsaved inserts, and its changed or deleted saved objects, of an entity.
    struct PendingObjects {
        var inserted: [ManagedObject] = []
        var changedOrDeleted: [ManagedObject] = []
    }

    func pendingObjects(of entity: EntityDescription) -> PendingObjects {
        var inserted: [ManagedObject] = []
        if registry.hasInserts {
            inserted = registry.insertedOrder.filter { $0.insertedFlag && $0.entity === entity }
        }
        var changedOrDeleted: [ManagedObject] = []
        for object in changeTracker.changed.values where object.entity === entity { changedOrDeleted.append(object) }
        for object in changeTracker.deleted.values where object.entity === entity && object.committedStorage == nil {
            changedOrDeleted.append(object)
        }
        return PendingObjects(inserted: inserted, changedOrDeleted: changedOrDeleted)
    }

    /// Runs the plan's query in the store and turns rows into registered objects.
    private func select(_ plan: FetchPlan, limit: Int, offset: Int) throws -> [ManagedObject] {
        var result: [ManagedObject] = []
        let objects = entityObjects(plan.entity)
        if objects.byKey.isEmpty {
            // Nothing of the entity registered (a fresh context): every row is a new object,
            // and the identity map is filled once, at its final size, after the read.
            let entity = plan.entity
            try store.read(plan.query, limit: limit, offset: offset) { key, version, decode in
                result.append(try makeObject(key: key, version: version, decode, entity: entity))
            }
            if let repeated = objects.byKey.insertNew(result) {
                // Two rows with one primary key: only a damaged table or index returns them.
                // The objects made are let go unregistered (their `deinit` finds no entry).
                throw PersistError(.notADatabase, "\(store.displayPath) is damaged: its table of \(entity.name) returned the key "
                                   + "\(repeated.identityKey) twice", entity: entity.name, store: store.displayPath)
            }
            return result
        }
        try store.read(plan.query, limit: limit, offset: offset) { key, version, decode in
            result.append(try materialize(key: key, version: version, decode, entity: plan.entity, objects: objects))
        }
        return result
    }

    /// Reads saved objects by primary key (in key order per chunk), registering them.
    func readObjects(entity: EntityDescription, keys: [Int64]) throws -> [ManagedObject] {
        var result: [ManagedObject] = []
        let objects = entityObjects(entity)
        try store.read(entity, keys: keys) { key, version, decode in
            result.append(try materialize(key: key, version: version, decode, entity: entity, objects: objects))
        }
        return result
    }

    /// The object for a row: the registered instance (refreshed if unchanged here and newer in
    /// the store) or a new one. Values are decoded only when they are needed.
    @inline(__always)
    func materialize(key: Int64, version: Int64, _ decode: () throws -> ContiguousArray<SQLValue>,
                             entity: EntityDescription, objects: EntityObjects) throws -> ManagedObject {
        if let object = objects.byKey[key] {
            try refreshIfNewer(object, version: version, decode)
            return object
        }
        let object = try makeObject(key: key, version: version, decode, entity: entity)
        objects.byKey.insert(object, for: key)
        return object
    }

    /// A new object for a row, not yet in the identity map.
    @inline(__always)
    func makeObject(key: Int64, version: Int64, _ decode: () throws -> ContiguousArray<SQLValue>,
                    entity: EntityDescription) throws -> ManagedObject {
        let object = entity.objectClass.init(entity: entity, insertInto: nil)
        object.storage = try decode()
        object.version = version
        object.readAtMerge = mergeCursor.mergeCount
        object.objectID = savedObjectID(entity, key: key)
        object.managedObjectContext = self
        if isObservable { object.lifecycle.insert(.tracksReads) }
        return object
    }

    /// Takes the store's values for a registered object when the row is newer and the object
    /// has no real local change (a value set back to what was read is none).
    @inline(__always)
    func refreshIfNewer(_ object: ManagedObject, version: Int64, _ decode: () throws -> ContiguousArray<SQLValue>) throws {
        guard object.version != version, !object.deletedFlag, !object.isChangedSinceRead else { return }
        let storage = try decode()
        if object.committedStorage != nil {
            object.committedStorage = nil
            changeTracker.forgetChange(object)
        }
        noteRefreshed(object, newStorage: storage)
        object.version = version
    }

    /// Replaces an unchanged object's values with newer ones from the store, and queues the
    /// difference for observers.
    func noteRefreshed(_ object: ManagedObject, newStorage: ContiguousArray<SQLValue>) {
        var slots = SlotSet()
        for index in newStorage.indices where index < object.storage.count
            && !SQLValue.identical(newStorage[index], object.storage[index]) {
            slots.insert(index)
        }
        if !slots.isEmpty, !object.entity.foreignKeySlots.isEmpty { queueToManyPartners(of: object, newStorage: newStorage, slots: slots) }
        object.announceWillChange(slots)
        object.storage = newStorage
        object.announceDidChange(slots)
        if object.loadedExternalValues != nil { object.dropStaleExternalValues() }
        pendingNotice.queueUpdate(object, slots: slots)
        if let related = object.related {
            // Loaded relationships may be stale now; lists with local changes stay (a list
            // changed and changed back has none: kept, it would hide the store's list). What
            // such a list held is compared with the store's before the next notice (not now: a
            // read is under way), as other contexts may have changed it meanwhile.
            related.toOne.removeAll()
            var changedBack: [Int: [Int64]] = [:]
            related.toMany = related.toMany.filter { index, contents in
                guard let committed = contents.committed else { return false }
                if committed == contents.references { changedBack[index] = committed }
                return committed != contents.references
            }
            graph.advance()
            if !changedBack.isEmpty { pendingNotice.queueChangedBackLists(object, changedBack) }
        } else if !object.entity.relationships.isEmpty || model.hasRelationships {
            graph.advance()
        }
    }
}
