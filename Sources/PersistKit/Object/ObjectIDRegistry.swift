import Foundation

/// The process-wide table of (entity name, store identifier) pairs that ``ObjectID``s name
/// by index. Append-only: a pair keeps its index for the life of the process (a process sees
/// one pair per entity per store it opens, a few hundred at most), so an index in an ID never
/// goes stale.
// @unchecked Sendable: `names` and `indexes` are read and written only while holding `lock`.
// (An NSLock, a pthread mutex, rather than Synchronization's Mutex: on Linux that one waits on
// a futex that ThreadSanitizer does not see, so it reported the table's accesses as races.)
final class ObjectIDRegistry: @unchecked Sendable {
    /// The pair an index names.
    struct Names: Sendable, Hashable {
        let entityName: String
        let storeIdentifier: String
    }

    static let shared = ObjectIDRegistry()

    private let lock = NSLock()
    private var names: [Names] = []
    private var indexes: [Names: UInt32] = [:]

    /// The index of the pair, added on first use.
    func intern(entityName: String, storeIdentifier: String) -> UInt32 {
        let pair = Names(entityName: entityName, storeIdentifier: storeIdentifier)
        lock.lock()
        defer { lock.unlock() }
        if let index = indexes[pair] { return index }
        // UInt32 wraps only after four billion distinct pairs: no process opens that many stores.
        let index = UInt32(truncatingIfNeeded: names.count)
        names.append(pair)
        indexes[pair] = index
        return index
    }

    /// The pair at `index`, which `intern` returned.
    func names(at index: UInt32) -> Names {
        lock.lock()
        defer { lock.unlock() }
        return names[Int(index)]
    }
}
