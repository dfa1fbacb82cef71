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
/// the context holds anyway.
public final class BatchedResults<Result: ManagedObject>: RandomAccessCollection {
    private let context: ManagedObjectContext
    private let entity: EntityDescription
    /// Saved objects by primary key, in order; a pending object (inserted, or changed in the
    /// context) as `-(its index in pending + 1)`.
    private let keys: [Int64]
    private let pending: [ManagedObject]
    private let batchSize: Int
    /// The request's prefetching, run on each batch as it is made.
    private let prefetching: [ManagedObjectContext.PrefetchStep]
    private var recent: [(batch: Int, objects: [ManagedObject])] = []

    init(context: ManagedObjectContext, entity: EntityDescription, keys: [Int64], pending: [ManagedObject], batchSize: Int,
         prefetching: [ManagedObjectContext.PrefetchStep]) {
        self.context = context
        self.prefetching = prefetching
        self.entity = entity
        self.keys = keys
        self.pending = pending
        self.batchSize = Swift.max(1, batchSize)
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
        if let cached = recent.first(where: { $0.batch == batch }) {
            return unsafeDowncast(cached.objects[position - batch * batchSize], to: Result.self)
        }
        let range = (batch * batchSize)..<Swift.min(keys.count, (batch + 1) * batchSize)
        var made = context.objects(of: entity, keys: keys[range].filter { $0 > 0 })
        if made.count < range.count {
            // Pending objects keep their places among the saved ones.
            var saved = made.makeIterator()
            made = keys[range].compactMap { $0 < 0 ? pending[Int(-$0 - 1)] : saved.next() }
        }
        try? context.prefetch(prefetching, for: made.filter { !$0.deletedFlag })
        recent.append((batch, made))
        if recent.count > 2 { recent.removeFirst() }
        return unsafeDowncast(made[position - batch * batchSize], to: Result.self)
    }

    /// The identity of the object at `position`, without making it.
    public func objectID(at position: Int) -> ObjectID {
        let key = keys[position]
        return key < 0 ? pending[Int(-key - 1)].objectID : context.savedObjectID(entity, key: key)
    }
}
