import PersistKitCollections

/// Prefetching (`FetchRequest.relationshipKeyPathsForPrefetching`): after a fetch, each named
/// relationship is loaded for all the fetched objects at once, one query per key path segment
/// whatever the number of objects, and left where a first read would leave it (a to-one's
/// cache, a to-many's contents), so reading it afterwards runs no query.
///
/// Prefetched contents are the ones a read would compute: to-ones come from the objects'
/// current foreign keys, owned lists are loaded only where none is loaded yet, and derived
/// to-manys are computed by the same functions as a read (stored rows corrected by the
/// context's unsaved changes), batched over the objects.
extension ManagedObjectContext {
    /// One relationship to prefetch from the objects the step above reached (the fetched
    /// objects for the first segment), and the segments that continue from its destinations.
    struct PrefetchStep {
        let relationship: RelationshipDescription
        let destination: EntityDescription
        var next: [PrefetchStep] = []
    }

    /// The key paths as a tree of steps from `entity` (shared prefixes prefetched once).
    ///
    /// - Throws: ``PersistError`` `.invalidRequest` naming the key path and entity when a
    ///   segment is not a relationship.
    func prefetchSteps(_ keyPaths: [String], entity: EntityDescription) throws -> [PrefetchStep] {
        var steps: [PrefetchStep] = []
        for keyPath in keyPaths {
            let names = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            try insert(names[...], into: &steps, from: entity, keyPath: keyPath, root: entity)
        }
        return steps
    }

    private func insert(_ names: ArraySlice<String>, into steps: inout [PrefetchStep], from entity: EntityDescription,
                        keyPath: String, root: EntityDescription) throws {
        guard let name = names.first else { return }
        guard let relationship = entity.relationship(named: name), let destination = destination(of: relationship),
              relationship.storage != .unresolved else {
            let what = entity.attribute(named: name) != nil ? "an attribute, not a relationship" : "not a relationship"
            throw PersistError(.invalidRequest, "Cannot prefetch \"\(keyPath)\" for \(root.name): \"\(name)\" is "
                + "\(what) of \(entity.name) (relationships: \(entity.relationships.map(\.name).joined(separator: ", ")))",
                entity: root.name, attribute: keyPath)
        }
        let index: Int
        if let found = steps.firstIndex(where: { $0.relationship.name == name }) {
            index = found
        } else {
            steps.append(PrefetchStep(relationship: relationship, destination: destination))
            index = steps.count - 1
        }
        try insert(names.dropFirst(), into: &steps[index].next, from: destination, keyPath: keyPath, root: root)
    }

    /// Prefetches `steps` for `objects` (distinct objects of one entity, none deleted).
    func prefetch(_ steps: [PrefetchStep], for objects: [ManagedObject]) throws {
        guard !objects.isEmpty else { return }
        for step in steps {
            let reached = try prefetch(step.relationship, destination: step.destination, for: objects,
                                       collectingTargets: !step.next.isEmpty)
            try prefetch(step.next, for: reached)
        }
    }

    /// Loads one relationship for every object; returns the distinct objects reached when asked.
    private func prefetch(_ relationship: RelationshipDescription, destination: EntityDescription,
                          for objects: [ManagedObject], collectingTargets: Bool) throws -> [ManagedObject] {
        if destination.readsSubentities {
            return try prefetchWithSubentities(relationship, destination: destination, for: objects, collectingTargets: collectingTargets)
        }
        let index = relationship.index
        let keeper = RowKeeper()
        let lists: [ToManyContents]
        switch relationship.storage {
        case .unresolved:
            return []
        case .foreignKey(let slot, _):
            return try prefetchToOne(index, slot: slot, destination: destination, for: objects, collectingTargets: collectingTargets)
        case .joinTable(let table, isOwner: true):
            lists = try ownedLists(index, for: objects, storedRows: wholeRows(destination, keeper) {
                try self.store.readLinked(destination, in: table, owners: $0, $1)
            })
        case .joinTable(let table, isOwner: false):
            let rows = wholeRows(destination, keeper) { try self.store.readInverseLinked(destination, in: table, destinations: $0, $1) }
            lists = try derivedLists(index, for: objects) {
                try derivedLinks(of: $0, table: table, relationship: relationship, storedRows: rows)
            }
        case .inverseForeignKey(_, let slot, let positionSlot):
            let rows = wholeRows(destination, keeper) {
                try self.store.readReferencing(destination, slot: slot, positionSlot: positionSlot, owners: $0, $1)
            }
            lists = try derivedLists(index, for: objects) {
                try derivedChildren(of: $0, relationship: relationship, slot: slot, positionSlot: positionSlot, storedRows: rows)
            }
        }
        return try withExtendedLifetime(keeper) {
            try fillObjects(lists, destination: destination, collectingTargets: collectingTargets)
        }
    }

    /// The objects a prefetch query read, held until the lists hold them: the identity map
    /// does not retain.
    private final class RowKeeper {
        var objects: [ManagedObject] = []
    }

    /// The stored references one query gives (`read`), its whole rows made into objects as
    /// they come (those not registered yet; registered ones are left as they are, as a read
    /// of the relationship leaves them).
    private func wholeRows(_ destination: EntityDescription, _ keeper: RowKeeper,
                           _ read: @escaping ([Int64], SQLiteStore.ReferencedRowHandler) throws -> Void) -> StoredReferences {
        let held = entityObjects(destination)
        return { [unowned self] keys in
            var rows: [SQLiteStore.Reference] = []
            try read(keys) { row, version, decode in
                rows.append(row)
                if held.byKey[row.key] == nil {
                    keeper.objects.append(try self.materialize(key: row.key, version: version, decode, entity: destination, objects: held))
                }
            }
            return rows
        }
    }

    /// A relationship to an entity with sub-entities: its rows may be of any entity of the
    /// subtree, each read as its own entity's object (``resolve(_:in:)-([Int64],_)``: one query
    /// per entity of the subtree for all the objects), then left where a read leaves them.
    private func prefetchWithSubentities(_ relationship: RelationshipDescription, destination: EntityDescription,
                                         for objects: [ManagedObject], collectingTargets: Bool) throws -> [ManagedObject] {
        let index = relationship.index
        var references: [Int64] = []
        switch relationship.storage {
        case .unresolved:
            return []
        case .foreignKey(let slot, _):
            for object in objects { if case .integer(let reference) = object.storage[slot] { references.append(reference) } }
        case .joinTable(let table, isOwner: true):
            let lists = try ownedLists(index, for: objects) { try self.store.links(in: table, owners: $0) }
            for contents in lists { references += contents.references }
        case .joinTable, .inverseForeignKey:
            for object in objects { references += toManyContents(of: object, relationship: index)?.references ?? [] }
        }
        // Held until the objects' caches and lists hold them: the identity map does not retain.
        let read = resolve(references, in: destination)
        return withExtendedLifetime(read) {
            var targets: [ManagedObject] = []
            var reached = Set<ObjectIdentifier>()
            for object in objects {
                let related = relationship.kind == .toOne ? toOneObject(of: object, relationship: index).map { [$0] } ?? []
                    : toManyObjects(of: object, relationship: index)
                guard collectingTargets else { continue }
                for target in related where reached.insert(ObjectIdentifier(target)).inserted { targets.append(target) }
            }
            return targets
        }
    }

    // MARK: To-one

    /// Resolves every object's to-one from its current foreign key, reading the destinations
    /// not yet registered in one query, and caches it as a read would.
    private func prefetchToOne(_ index: Int, slot: Int, destination: EntityDescription, for objects: [ManagedObject],
                               collectingTargets: Bool) throws -> [ManagedObject] {
        let held = entityObjects(destination)
        var missing: [Int64] = []
        var seen = Int64HashSet()
        var previous: Int64 = 0
        for object in objects {
            // A valid cache's object is alive, so registered: only unregistered keys are read.
            guard case .integer(let reference) = object.storage[slot], reference > 0, reference != previous else { continue }
            previous = reference
            if held.byKey[reference] == nil, seen.insert(reference) { missing.append(reference) }
        }
        // Held here until the sources' caches hold them: the identity map does not retain.
        var read: [ManagedObject] = []
        read.reserveCapacity(missing.count)
        try store.read(destination, keyList: missing) { key, version, decode in
            read.append(try materialize(key: key, version: version, decode, entity: destination, objects: held))
        }
        var targets: [ManagedObject] = []
        var reached = Set<ObjectIdentifier>()
        for object in objects {
            guard case .integer(let reference) = object.storage[slot] else { continue }
            let target: ManagedObject
            if let cached = object.related?.toOne[index], cached.reference == reference,
               cached.object.managedObjectContext === self, !cached.object.deletedFlag {
                target = cached.object   // as toOneObject(of:relationship:) would return it
            } else {
                guard let found = localObject(reference, held: held), !found.deletedFlag else { continue }
                target = found
                if object.related == nil { object.related = RelatedObjects() }
                object.related?.toOne[index] = (reference, found)
            }
            if collectingTargets, reached.insert(ObjectIdentifier(target)).inserted { targets.append(target) }
        }
        return targets
    }

    /// The registered or inserted object for a reference, without reading the store.
    @inline(__always)
    private func localObject(_ reference: Int64, held: EntityObjects) -> ManagedObject? {
        if reference < 0 {
            guard let object = registry.insertedObject(temporaryKey: -reference) else { return nil }
            return object
        }
        return held.byKey[reference]
    }

    // MARK: To-many

    /// The owning side of a join table: lists not loaded yet are read in one query (a loaded
    /// list is current, local changes included).
    private func ownedLists(_ index: Int, for objects: [ManagedObject], storedRows: StoredReferences) throws -> [ToManyContents] {
        let keys = objects.filter { $0.related?.toMany[index] == nil && !$0.hasTemporaryKey }.map(\.identityKey)
        var byOwner: [Int64: [Int64]] = [:]
        for link in try storedRows(keys) { byOwner[link.owner, default: []].append(link.key) }
        let generation = graph.generation
        return objects.compactMap { object in
            if let contents = object.related?.toMany[index] { return contents }
            // An unsaved object's list needs no query: the read path sets it up.
            guard !object.hasTemporaryKey else { return toManyContents(of: object, relationship: index) }
            let contents = ToManyContents(references: byOwner[object.identityKey] ?? [], generation: generation)
            if object.related == nil { object.related = RelatedObjects() }
            object.related?.toMany[index] = contents
            return contents
        }
    }

    /// A derived side: lists computed at an older graph generation (or never) are computed for
    /// all those objects at once by `derive`, which returns one list per object given.
    private func derivedLists(_ index: Int, for objects: [ManagedObject],
                              derive: ([ManagedObject]) throws -> [[Int64]]) throws -> [ToManyContents] {
        let generation = graph.generation
        let stale = objects.filter { $0.related?.toMany[index]?.generation != generation }
        let lists = try derive(stale)
        for (object, references) in zip(stale, lists) {
            if object.related == nil { object.related = RelatedObjects() }
            object.related?.toMany[index] = ToManyContents(references: references, generation: generation)
        }
        return objects.compactMap { $0.related?.toMany[index] }
    }

    /// Materializes the objects of every list whose objects are not current (those the
    /// prefetch query read are registered by now; lists loaded earlier may need one more
    /// query); returns the distinct objects reached when asked.
    private func fillObjects(_ lists: [ToManyContents], destination: EntityDescription,
                             collectingTargets: Bool) throws -> [ManagedObject] {
        func isCurrent(_ contents: ToManyContents) -> Bool {
            guard let objects = contents.objects, objects.count == contents.references.count else { return false }
            return objects.allSatisfy { $0.managedObjectContext === self && !$0.deletedFlag }
        }
        let held = entityObjects(destination)
        let stale = lists.filter { !isCurrent($0) }
        var missing: [Int64] = []
        var seen = Set<Int64>()
        for contents in stale {
            for reference in contents.references where reference > 0 && held.byKey[reference] == nil
                && seen.insert(reference).inserted {
                missing.append(reference)
            }
        }
        var read: [ManagedObject] = []
        try store.read(destination, keyList: missing) { key, version, decode in
            read.append(try materialize(key: key, version: version, decode, entity: destination, objects: held))
        }
        for contents in stale {
            // As toManyObjects(of:relationship:) keeps them: deleted ones left out.
            contents.objects = contents.references.compactMap { localObject($0, held: held) }.filter { !$0.deletedFlag }
        }
        guard collectingTargets else { return [] }
        var targets: [ManagedObject] = []
        var reached = Set<ObjectIdentifier>()
        for contents in lists {
            for object in contents.objects ?? [] where !object.deletedFlag && reached.insert(ObjectIdentifier(object)).inserted {
                targets.append(object)
            }
        }
        return targets
    }
}
