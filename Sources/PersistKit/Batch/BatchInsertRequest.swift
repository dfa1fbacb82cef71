/// Inserts many objects in SQL, without making managed objects: from dictionaries of values,
/// or from a closure that fills one object at a time.
///
/// ```swift
/// let request = BatchInsertRequest<Contact>(objects: [["name": "Ann", "bucket": 3], ["name": "Bob", "bucket": 3]])
/// let result = try context.execute(request)     // result.objectIDs, in the objects' order
/// ```
///
/// Every value is checked as a save checks it (types, required values, attribute rules) and
/// uniqueness is checked against the batch and the store: the first problem throws a
/// ``PersistError`` naming the row's index, and nothing is written. With the context's merge
/// policy `.objectTrump`, a row whose unique values a stored row holds updates that row
/// instead (an upsert: its attributes, and the to-ones the row sets), and of rows of the batch
/// that collide, the last wins.
///
/// A row sets a to-one to a saved object: give the object or its ``ObjectID`` under the
/// relationship's name (`["name": "Ann", "bucket": bucketID]`), or assign it in the fill
/// closure (`contact.bucket = bucket`). To-manys, and to-ones whose inverse is ordered, are not
/// set by batch inserts. The request writes one persistent-history transaction; every context
/// of the container (this one included) merges the inserted objects at its next
/// ``ManagedObjectContext/processPendingChanges()``, other processes' contexts from the history.
public struct BatchInsertRequest<Result: ManagedObject> {
    enum Source {
        case dictionaries([[String: Any?]])
        case fill((Result) -> Bool)
    }

    /// The entity's name, when it is not found from `Result` (entities of a model document).
    public var entityName: String?
    let source: Source

    /// A request inserting one object per dictionary (attribute name to value, to-one name to a
    /// saved object or its ID; a missing attribute takes its default).
    public init(entityName: String? = nil, objects: [[String: Any?]]) {
        self.entityName = entityName
        source = .dictionaries(objects)
    }

    /// A request calling `fill` with a fresh object until it returns `true`, as Core Data's
    /// `managedObjectHandler`: each object filled by a call that returns `false` is inserted;
    /// the one passed to the call that returns `true` is not.
    ///
    /// ```swift
    /// var next = 0
    /// let request = BatchInsertRequest<Contact> { contact in
    ///     guard next < names.count else { return true }
    ///     contact.name = names[next]; next += 1
    ///     return false
    /// }
    /// ```
    public init(entityName: String? = nil, fill: @escaping (Result) -> Bool) {
        self.entityName = entityName
        source = .fill(fill)
    }
}
