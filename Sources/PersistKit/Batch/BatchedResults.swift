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
/// applied as by ``ManagedObjectContext/fetch(_:)``; while the entity has any, the objects
/// are made at once (memory then grows with the results, as a plain fetch's does).
public final class BatchedResults<Result: ManagedObject>: RandomAccessCollection {
    private let context: ManagedObjectContext
    private let entity: EntityDescription
    /// Saved objects by primary key, in order; empty when `objects` holds everything.
    private let keys: [Int64]
    /// Every object, when they were made at once (pending changes).
    private let objects: [ManagedObject]?
    private let batchSize: Int
    private var recent: [(batch: Int, objects: [ManagedObject])] = []

    init(context: ManagedObjectContext, entity: EntityDescription, keys: [Int64], objects: [ManagedObject]?, batchSize: Int) {
        self.context = context
        self.entity = entity
        self.keys = keys
        self.objects = objects
        self.batchSize = Swift.max(1, batchSize)
    }

    /// The first position, 0.
    public var startIndex: Int { 0 }
    /// One past the last position: the number of objects.
    public var endIndex: Int { objects?.count ?? keys.count }

    /// The object at `position`, made with the rest of its batch if it is not held.
    public subscript(position: Int) -> Result {
        if let objects { return unsafeDowncast(objects[position], to: Result.self) }
        let batch = position / batchSize
        if let cached = recent.first(where: { $0.batch == batch }) {
            return unsafeDowncast(cached.objects[position - batch * batchSize], to: Result.self)
        }
        let made = context.batch(of: entity, keys: keys[(batch * batchSize)..<Swift.min(keys.count, (batch + 1) * batchSize)])
        recent.append((batch, made))
        if recent.count > 2 { recent.removeFirst() }
        return unsafeDowncast(made[position - batch * batchSize], to: Result.self)
    }

    /// The identity of the object at `position`, without making it.
    public func objectID(at position: Int) -> ObjectID {
        if let objects { return objects[position].objectID }
        return context.savedObjectID(entity, key: keys[position])
    }
}
