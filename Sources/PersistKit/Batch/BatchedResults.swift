/// The results of a batched fetch: every object's identity up front, the objects themselves made
/// a batch at a time as they are read, and let go when nothing holds them.
///
/// ```swift
/// var request = FetchRequest<Contact>(sortBy: [FetchSortDescriptor(\.name)])
/// request.fetchBatchSize = 500
/// for contact in try context.fetchBatched(request) {   // a million rows, in bounded memory
///     print(contact.name)
/// }
/// ```
///
/// The collection keeps the primary keys (8 bytes per object) and the two batches read last.
/// Objects of earlier batches go when nothing else holds them, as any unchanged object of a
/// context does; reading one again reads its batch again. The context's unsaved changes are
/// applied as by ``ManagedObjectContext/fetch(_:)``, and still only keys are kept for the saved
/// rows: the collection holds the context's inserted and changed objects that match, which
/// the context holds anyway. After the context's `reset()` the saved rows are read again into
/// the context as they are reached; the pending objects stay as the reset left them.
///
/// An object of an earlier batch that nothing else holds (no strong, weak or unowned
/// reference) may be refilled with a later row instead of being freed, when its class declares
/// nothing but `@Attribute` and `@Relationship` properties: keep side effects out of `deinit`
/// and `init(entity:insertInto:)`, as Core Data asks of `dealloc`.
public final class BatchedResults<Result: ManagedObject>: RandomAccessCollection {
    private let context: ManagedObjectContext
    private let entity: EntityDescription
    private let readPlan: BatchReadPlan
    /// Saved objects by primary key, in order; a pending object (inserted, or changed in the
    /// context) as `-(its index in pending + 1)`.
    private let keys: [Int64]
    private let pending: [ManagedObject]
    /// For a fetch with sub-entities, each key's entity as an index into `entities` (empty
    /// otherwise: every key is `entity`'s).
    private let keyEntities: [UInt16]
    private let entities: [EntityDescription]
    private let batchSize: Int
    /// The request's prefetching, run on each batch as it is made.
    private let prefetching: [ManagedObjectContext.PrefetchStep]
    private var recent: [(batch: Int, objects: [ManagedObject])] = []
    /// The context's reset count when `recent` was read: a reset detaches those objects.
    private var resetCount: Int

    init(context: ManagedObjectContext, entity: EntityDescription, keys: [Int64], pending: [ManagedObject], batchSize: Int,
         prefetching: [ManagedObjectContext.PrefetchStep], keyEntities: [UInt16] = [], entities: [EntityDescription] = []) {
        self.context = context
        self.prefetching = prefetching
        self.entity = entity
        readPlan = BatchReadPlan(entity: entity)
        self.keys = keys
        self.pending = pending
        self.keyEntities = keyEntities
        self.entities = entities
        self.batchSize = Swift.max(1, batchSize)
        resetCount = context.mergeCursor.resetCount
    }

    /// The first position, 0.
    public var startIndex: Int { 0 }
    /// One past the last position: the number of objects.
    public var endIndex: Int { keys.count }

    /// The object at `position`, made with the rest of its batch if it is not held.
    public subscript(position: Int) -> Result {
        let key = keys[position]
        if key < 0 { return unsafeDowncast(pending[Int(-key - 1)], to: Result.self) }
        let batch = position / batchSize
        return unsafeDowncast(objects(inBatch: batch)[position - batch * batchSize], to: Result.self)
    }

    /// The objects of batch `batch` (positions `batch * batchSize` on), made if not held.
    fileprivate func objects(inBatch batch: Int) -> [ManagedObject] {
        if resetCount != context.mergeCursor.resetCount {
            // The context was reset: the batches held are no longer its objects.
            recent.removeAll()
            resetCount = context.mergeCursor.resetCount
        }
        for cached in recent where cached.batch == batch { return cached.objects }
        let range = (batch * batchSize)..<Swift.min(keys.count, (batch + 1) * batchSize)
        // The oldest batch goes now rather than after this one is read: the read lets go of one
        // of its objects per row it makes, so the allocator reuses each freed object's memory
        // for the next (freeing 500 at once overflows its per-size caches, and every
        // allocation of the next batch then takes its slow path).
        var leaving = recent.count >= 2 ? recent.removeFirst().objects : []
        var made: [ManagedObject]
        if keyEntities.isEmpty {
            made = context.objects(readPlan, keys: pending.isEmpty ? Array(keys[range]) : keys[range].filter { $0 > 0 },
                                   lettingGo: &leaving)
            if !leaving.isEmpty { context.letGo(leaving, of: entity) }
        } else {
            made = savedObjectsOfTree(in: range, leaving: leaving)
        }
        if made.count < range.count {
            // Pending objects keep their places among the saved ones.
            var saved = made.makeIterator()
            made = keys[range].compactMap { $0 < 0 ? pending[Int(-$0 - 1)] : saved.next() }
        }
        if !prefetching.isEmpty { try? context.prefetch(prefetching, for: made.filter { !$0.deletedFlag }) }
        recent.append((batch, made))
        return made
    }

    /// The saved objects of the positions in `range` of a fetch with sub-entities, in order:
    /// read an entity at a time; `leaving` let go of, an entity at a time.
    private func savedObjectsOfTree(in range: Range<Int>, leaving: [ManagedObject]) -> [ManagedObject] {
        for entity in entities {
            let gone = leaving.filter { $0.entity === entity }
            if !gone.isEmpty { context.letGo(gone, of: entity) }
        }
        // Each entity's keys, and where its objects go among the saved ones.
        var keysOf = [[Int64]](repeating: [], count: entities.count)
        var placesOf = [[Int]](repeating: [], count: entities.count)
        var saved = 0
        for position in range where keys[position] > 0 {
            let index = Int(keyEntities[position])
            keysOf[index].append(keys[position])
            placesOf[index].append(saved)
            saved += 1
        }
        var made = [ManagedObject?](repeating: nil, count: saved)
        var none: [ManagedObject] = []
        for (index, entity) in entities.enumerated() where !keysOf[index].isEmpty {
            let objects = context.objects(BatchReadPlan(entity: entity), keys: keysOf[index], lettingGo: &none)
            for (place, object) in zip(placesOf[index], objects) { made[place] = object }
        }
        return made.map { $0 ?? context.deletedStandIn(entity, key: 0) }
    }

    /// Iterates the objects in order, a batch at a time: each position is an array read, not a
    /// lookup of its batch.
    public func makeIterator() -> Iterator {
        Iterator(results: self)
    }

    /// An iterator over a batched fetch's objects, holding the batch it is in.
    public struct Iterator: IteratorProtocol {
        private let results: BatchedResults
        private var position = 0
        private var batch: [ManagedObject] = []
        /// The position of `batch`'s first object.
        private var batchStart = 0
        /// The context's reset count when `batch` was read.
        private var resetCount = 0

        /// The number of objects (the results do not change).
        private let end: Int

        fileprivate init(results: BatchedResults) {
            self.results = results
            end = results.keys.count
        }

        /// The next object, or nil after the last.
        public mutating func next() -> Result? {
            guard position < end else { return nil }
            defer { position += 1 }
            if position - batchStart >= batch.count || resetCount != results.context.mergeCursor.resetCount {
                let index = position / results.batchSize
                batchStart = index * results.batchSize
                resetCount = results.context.mergeCursor.resetCount
                batch = results.objects(inBatch: index)
            }
            return unsafeDowncast(batch[position - batchStart], to: Result.self)
        }
    }

    /// The identity of the object at `position`, without making it.
    public func objectID(at position: Int) -> ObjectID {
        let key = keys[position]
        if key < 0 { return pending[Int(-key - 1)].objectID }
        return context.savedObjectID(keyEntities.isEmpty ? entity : entities[Int(keyEntities[position])], key: key)
    }
}
