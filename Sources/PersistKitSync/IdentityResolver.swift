import Foundation
import PersistKit

/// Global IDs of local objects, by entity and primary key, and back: the identity table's
/// (objects that came from elsewhere, or that synced before), else the name-based ID a local
/// object gets when it first syncs (``GlobalID/local(store:entity:key:)``).
struct IdentityResolver {
    let store: String
    private var known: [String: [Int64: String]] = [:]
    private var loaded: [String: Set<Int64>] = [:]
    /// The entity and key of every ID handed out for a loaded key.
    private var reverse: [String: (entity: String, key: Int64)] = [:]

    init(store: String) { self.store = store }

    /// Reads the identities of `keys` of `entity` (once each).
    mutating func load(_ entity: String, keys: [Int64], _ sql: StoreTransaction) throws {
        let missing = keys.filter { !(loaded[entity]?.contains($0) ?? false) }
        guard !missing.isEmpty else { return }
        loaded[entity, default: []].formUnion(missing)
        known[entity, default: [:]].merge(try LocalSyncTables.ids(of: entity, keys: missing, sql)) { $1 }
        for key in missing { reverse[id(entity, key)] = (entity, key) }
    }

    /// The object's global ID.
    func id(_ entity: String, _ key: Int64) -> String {
        known[entity]?[key] ?? GlobalID.local(store: store, entity: entity, key: key)
    }

    /// Whether the object has no identity row yet (it has never synced).
    func isNew(_ entity: String, _ key: Int64) -> Bool { known[entity]?[key] == nil }

    /// The primary key of the object `id` of `entity`, if it is in this store: one whose ID
    /// this resolver handed out, or one in the identity table.
    func key(of id: String, entity: String, _ sql: StoreTransaction) throws -> Int64? {
        if let found = reverse[id], found.entity == entity { return found.key }
        guard let found = try LocalSyncTables.keys(of: [id], sql)[id], found.entity == entity else { return nil }
        return found.key
    }
}
