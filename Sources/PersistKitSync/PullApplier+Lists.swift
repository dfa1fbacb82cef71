import Foundation
import PersistKit

extension PullApplier {
    /// Adds the links recorded present (by an earlier pull) between objects that just arrived
    /// and objects already here: a link can arrive before one of its ends.
    func linkArrivals(_ created: [String], object: (String) -> ManagedObject?, resolve: (String) -> String,
                      dirtyLists: inout Set<ListKey>) throws {
        let waiting = try container.readStore { sql -> [String: [String: LocalSyncTables.Clock]] in
            var links = Set<String>()
            for id in created {
                for (link, field) in try LocalSyncTables.keys(keeping: SyncValue(.text(id)).json, sql)
                where field == SyncRecord.ownerKey || field == SyncRecord.targetKey {
                    links.insert(link)
                }
            }
            return try LocalSyncTables.clocks(of: Array(links), sql)
        }
        for (linkID, fields) in waiting.sorted(by: { $0.key < $1.key }) {
            let parts = linkID.split(separator: ">", omittingEmptySubsequences: false)
            guard parts.count == 3, fields[SyncRecord.presentKey]?.value == "1",
                  let ownerID = fields[SyncRecord.ownerKey]?.value.flatMap(SyncValue.decode)?.text,
                  let targetID = fields[SyncRecord.targetKey]?.value.flatMap(SyncValue.decode)?.text,
                  let owner = object(resolve(ownerID)), let target = object(resolve(targetID)),
                  let link = schema.entities[owner.entity.name]?.links.first(where: { $0.relationship == parts[1] }) else { continue }
            var list = try owner.relatedObjects(forKey: link.relationship)
            guard !list.contains(where: { $0 === target }) else { continue }
            list.append(target)
            try owner.setRelatedObjects(list, forKey: link.relationship)
            if link.isOrdered { dirtyLists.insert(ListKey(owner: resolve(ownerID), relationship: link.relationship, element: nil)) }
        }
    }

    /// Puts each ordered list in the order of its elements' keys (ties by global ID).
    func order(_ lists: Set<ListKey>, object: (String) -> ManagedObject?, finder: inout ElementFinder,
               clocks: inout [String: [String: LocalSyncTables.Clock]]) throws {
        for list in lists.sorted(by: { ($0.owner, $0.relationship) < ($1.owner, $1.relationship) }) {
            guard let owner = object(list.owner), let relationship = owner.entity.relationship(named: list.relationship),
                  relationship.kind == .orderedToMany else { continue }
            let elements = try owner.relatedObjects(forKey: list.relationship)
            guard elements.count > 1 else { continue }
            let ids = try finder.ids(of: elements, container: container)
            let keyClocks: [String]
            let field: String
            if let link = schema.entities[owner.entity.name]?.links.first(where: { $0.relationship == list.relationship }) {
                keyClocks = ids.map { SyncRecord.linkID(owner: list.owner, relationship: link.relationship, target: $0) }
                field = SyncRecord.positionKey
            } else if let inverse = relationship.inverseName {
                keyClocks = ids
                field = SyncRecord.orderKey(of: inverse)
            } else {
                continue
            }
            let missing = keyClocks.filter { clocks[$0]?[field] == nil }
            if !missing.isEmpty {
                let read = try container.readStore { sql in try LocalSyncTables.clocks(of: missing, sql) }
                for (id, fields) in read { clocks[id, default: [:]].merge(fields) { current, _ in current } }
            }
            let sorted = zip(elements, zip(ids, keyClocks)).map { element, names in
                (element, names.0, clocks[names.1]?[field]?.value.flatMap(SyncValue.decode)?.text ?? "")
            }.sorted { ($0.2, $0.1) < ($1.2, $1.1) }.map(\.0)
            if !zip(sorted, elements).allSatisfy({ $0 === $1 }) {
                try owner.setRelatedObjects(sorted, forKey: list.relationship)
            }
        }
    }
}

/// The global IDs of objects a pull touches: those it made or read by ID, else the identity
/// table's, else the ID a local object gets when it first syncs.
struct ElementFinder {
    private var known: [ObjectIdentifier: String] = [:]
    let storeIdentifier: String

    init(objects: [String: ManagedObject], storeIdentifier: String) {
        for (id, object) in objects { known[ObjectIdentifier(object)] = id }
        self.storeIdentifier = storeIdentifier
    }

    mutating func ids(of objects: [ManagedObject], container: PersistentContainer) throws -> [String] {
        let unknown = objects.filter { known[ObjectIdentifier($0)] == nil && $0.objectID.primaryKey != nil }
        if !unknown.isEmpty {
            let found = try container.readStore { sql in
                try Dictionary(grouping: unknown, by: { $0.entity.name }).mapValues { group in
                    try LocalSyncTables.ids(of: group[0].entity.name, keys: group.compactMap(\.objectID.primaryKey), sql)
                }
            }
            for object in unknown {
                guard let key = object.objectID.primaryKey else { continue }
                known[ObjectIdentifier(object)] = found[object.entity.name]?[key]
                    ?? GlobalID.local(store: storeIdentifier, entity: object.entity.name, key: key)
            }
        }
        return objects.map { known[ObjectIdentifier($0)] ?? "" }
    }
}
