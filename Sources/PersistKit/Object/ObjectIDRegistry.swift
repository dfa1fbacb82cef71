import Synchronization

/// The process-wide table of (entity name, store identifier) pairs that ``ObjectID``s name
/// by index. Append-only: a pair keeps its index for the life of the process (a process sees
/// one pair per entity per store it opens, a few hundred at most), so an index in an ID never
/// goes stale.
final class ObjectIDRegistry: Sendable {
    /// The pair an index names.
    struct Names: Sendable, Hashable {
        let entityName: String
        let storeIdentifier: String
    }

    private struct Table {
        var names: [Names] = []
        var indexes: [Names: UInt32] = [:]
    }

    static let shared = ObjectIDRegistry()

    /// Every read and write of the table holds this lock.
    private let table = Mutex(Table())

    /// The index of the pair, added on first use.
    func intern(entityName: String, storeIdentifier: String) -> UInt32 {
        let names = Names(entityName: entityName, storeIdentifier: storeIdentifier)
        return table.withLock { table in
            if let index = table.indexes[names] { return index }
            // UInt32 overflows only after four billion distinct pairs: not a store's doing.
            let index = UInt32(truncatingIfNeeded: table.names.count)
            table.names.append(names)
            table.indexes[names] = index
            return index
        }
    }

    /// The pair at `index`, which `intern` returned.
    func names(at index: UInt32) -> Names {
        table.withLock { $0.names[Int(index)] }
    }
}
