import Synchronization

/// The successor contexts kept alive by their objects (see `ManagedObjectContext+Successor`):
/// each object a successor took over holds it here, by the object's identity, until the
/// object is freed. A side table, not a field: only objects that outlived their context pay,
/// and a `ManagedObject` stays as small as it is.
enum ContextSuccessors {
    /// A successor, held for one object.
    // @unchecked Sendable: the table's mutex (`keepers`) guards the table; the context itself is
    // only ever used through its objects, in the isolation domain its dead context was
    // confined to (objects are not Sendable): the table stores and drops it, never uses it.
    private struct Keeper: @unchecked Sendable {
        let context: ManagedObjectContext
    }

    /// The successor each object keeps alive, by the object's identity.
    private static let keepers = Mutex<[ObjectIdentifier: Keeper]>([:])

    /// How many objects keep a successor alive (for tests).
    static var count: Int { keepers.withLock { $0.count } }

    /// `objects` keep `successor` alive, each until it is freed (an object that kept an
    /// earlier successor keeps this one instead).
    static func keep(_ successor: ManagedObjectContext, for objects: [ManagedObject]) {
        let keeper = Keeper(context: successor)
        // The successors replaced are released after the lock: releasing one may free it.
        let replaced = keepers.withLock { table in
            table.reserveCapacity(table.count + objects.count)
            var replaced: [Keeper] = []
            for object in objects {
                if let old = table.updateValue(keeper, forKey: ObjectIdentifier(object)) { replaced.append(old) }
            }
            return replaced
        }
        for object in objects { object.lifecycle.insert(.keepsSuccessor) }
        _ = replaced
    }

    /// An object that kept a successor is being freed: it lets the successor go, which is freed
    /// too when it was the last (outside the lock: the successor's own `deinit` may hand its
    /// other objects over to a successor of its own).
    static func release(_ object: ManagedObject) {
        let keeper = keepers.withLock { $0.removeValue(forKey: ObjectIdentifier(object)) }
        _ = keeper
    }
}
