import Foundation
import PersistKit
@testable import PersistKitSync

/// The global IDs of a store's objects as PersistKitSync gives them: the identity table's,
/// else the name-based ID of a local object not synced yet.
func globalIDs(of container: PersistentContainer) throws -> (ManagedObject) -> String {
    let known = try container.readStore { sql -> [String: String] in
        var ids: [String: String] = [:]
        guard try !sql.rows("SELECT 1 FROM sqlite_master WHERE name = '_persistkit_sync_objects'").isEmpty else { return ids }
        for row in try sql.rows("SELECT entity, key, id FROM _persistkit_sync_objects") {
            if case .text(let entity) = row[0], case .integer(let key) = row[1], case .text(let id) = row[2] { ids["\(entity)/\(key)"] = id }
        }
        return ids
    }
    let store = container.storeIdentifier
    return { object in
        let key = object.objectID.primaryKey ?? -1
        return known["\(object.entity.name)/\(key)"] ?? GlobalID.local(store: store, entity: object.entity.name, key: key)
    }
}
