/// What a batch request did: the objects it inserted, changed or deleted.
///
/// ```swift
/// let result = try context.execute(BatchDeleteRequest<Contact>(predicate: \.bucket == 3))
/// print("\(result.count) contacts deleted")
/// ```
public struct BatchResult: Sendable, Hashable {
    /// The affected objects: for an insert, in the rows' order; for a delete, the cascaded
    /// objects after the requested ones.
    public let objectIDs: [ObjectID]

    /// How many objects were affected.
    public var count: Int { objectIDs.count }
}
