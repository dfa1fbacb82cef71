import Foundation
import PersistKit

/// Global IDs of local objects, by entity and primary key, and back: the identity table's
/// (objects that came from elsewhere, or that synced before), else the ID a local object gets
/// when it first syncs (`<store>/<entity>/<key>`).
struct IdentityResolver {
    let store: String
    private var known: [String: [Int64: String]] = [:]
    private var loaded: [String: Set<Int64>] = [:]

    init(store: String) { self.store = store }

    /// Reads the identities of `keys` of `entity` (once each).
    mutating func load(_ entity: String, keys: [Int64], _ sql: StoreTransaction) throws {
        let missing = keys.filter { !(loaded[entity]?.contains($0) ?? false) }
        guard !missing.isEmpty else { return }
        loaded[entity, default: []].formUnion(missing)
        known[entity, default: [:]].merge(try LocalSyncTables.ids(of: entity, keys: missing, sql)) { $1 }
    }

    /// The object's global ID.
    func id(_ entity: String, _ key: Int64) -> String {
        known[entity]?[key] ?? ChangeCapture.localID(store: store, entity: entity, key: key)
    }

    /// Whether the object has no identity row yet (it has never synced).
    func isNew(_ entity: String, _ key: Int64) -> Bool { known[entity]?[key] == nil }

    /// The primary key of the object `id` of `entity`, if it is in this store.
    mutating func key(of id: String, entity: String, _ sql: StoreTransaction) throws -> Int64? {
        if let found = try LocalSyncTables.keys(of: [id], sql)[id] { return found.key }
        let prefix = ChangeCapture.localID(store: store, entity: entity, key: 0).dropLast()
        guard id.hasPrefix(prefix), let key = Int64(id.dropFirst(prefix.count)) else { return nil }
        return key
    }
}
