import Foundation
import PersistKit

/// Applies the server's rows to the store in one save of a new context, so that other
/// contexts, controllers and processes merge it like any save; the bookkeeping (identities,
/// clocks, merges, how far the pull got) is written inside the same transaction.
///
/// Each key takes the server's value only when the server's reading is newer than the one
/// this store holds; deleted and merged objects are removed after their links and references
/// are cleared (so that no delete rule cascades or refuses: the store that deleted them
/// pushed what its rules did); links are added or removed as their `present` key says, when
/// both ends are here; ordered lists are put in the order of their elements' keys.
struct PullApplier {
    let container: PersistentContainer
    let schema: SyncSchema
    let policy: SyncConfiguration.DeletePolicy
    let author: String
    let storeIdentifier: String

    /// What applying did.
    struct Outcome {
        var applied = 0
        var conflictsResolved = 0
        var clock: HybridClock
    }

    /// Thrown inside the save when the store has local changes the last capture did not see:
    /// the round captures and pushes them before it pulls again.
    struct LocalChangesArrived: Error {}

    private struct LocalObject {
        let entity: String
        let key: Int64
    }

    /// Applies `records` (each object once, in server order). `capturedThrough` is the last
    /// history transaction the push captured: the save fails with ``LocalChangesArrived`` when
    /// another was saved since (the caller checks first, this closes the race).
    func apply(_ records: [SyncRecord], clock start: HybridClock, capturedThrough token: HistoryToken?,
               state: [String: String]) throws -> Outcome {
        var outcome = Outcome(clock: start)
        let context = container.newContext()
        context.transactionAuthor = author
        context.name = "PersistKitSync pull"
        var ids = Set(records.map(\.id))
        for record in records {
            for key in [SyncRecord.ownerKey, SyncRecord.targetKey] { if let end = record.fields[key]?.text { ids.insert(end) } }
            if let merged = record.mergedInto { ids.insert(merged) }
            for (field, value) in record.fields where schema.entities[record.entity]?.toOnes.contains(where: { $0.name == field }) == true {
                if let target = value.text { ids.insert(target) }
            }
        }
        var (identities, clocks, aliases) = try container.readStore { sql in
            (try LocalSyncTables.keys(of: Array(ids), sql), try LocalSyncTables.clocks(of: Array(ids), sql), try LocalSyncTables.aliases(sql))
        }
        for record in records { if let merged = record.mergedInto { aliases[record.id] = merged } }
        func resolve(_ id: String) -> String {
            var current = id
            var seen = Set<String>()
            while let next = aliases[current], seen.insert(current).inserted { current = next }
            return current
        }
        var writes = Writes()
        var objects: [String: ManagedObject] = [:]
        func object(_ id: String) -> ManagedObject? {
            if let found = objects[id] { return found }
            guard let local = identities[id], !writes.removedIdentities.contains(id) else { return nil }
            guard let found = try? context.existingObject(with: ObjectID(entityName: local.entity, storeIdentifier: storeIdentifier,
                                                                         primaryKey: local.key)), !found.isDeleted else { return nil }
            objects[id] = found
            return found
        }
        func isAlive(_ record: SyncRecord) -> Bool {
            guard record.mergedInto == nil else { return false }
            guard let deleted = record.deleted else { return true }
            return policy == .lastWriterWins && (record.newestClock ?? "") > deleted
        }
        var references: [(object: ManagedObject, id: String, relationship: String, target: String?)] = []
        var dirtyLists = Set<ListKey>()
        var doomed: [(id: String, object: ManagedObject)] = []
        var created: [String] = []

        // Objects: live ones first, so that a merge's winner exists before its loser goes.
        let (live, dead) = records.filter { schema.links[$0.entity] == nil }.reduce(into: ([SyncRecord](), [SyncRecord]())) {
            if isAlive($1) { $0.0.append($1) } else { $0.1.append($1) }
        }
        for record in live {
            guard let entity = schema.entities[record.entity] else { continue }
            var changedHere = false
            let local = object(record.id)
            let target: ManagedObject
            if let local {
                target = local
            } else {
                if identities[record.id] != nil && objects[record.id] == nil { continue }   // gone here: deleted by this store
                target = entity.description.objectClass.init(entity: entity.description, insertInto: context)
                objects[record.id] = target
                created.append(record.id)
            }
            for (field, clockText) in record.clocks.sorted(by: { $0.key < $1.key }) {
                guard let remote = HybridTimestamp(clockText) else { continue }
                outcome.clock.receive(remote)
                if let held = clocks[record.id]?[field].flatMap({ HybridTimestamp($0.clock) }), held >= remote, local != nil {
                    if held > remote { outcome.conflictsResolved += 1 }
                    continue
                }
                let value = record.fields[field] ?? .null
                changedHere = true
                var kept: String?
                if let attribute = entity.description.attribute(named: field) {
                    _ = target.setStoredValue(value.stored(as: attribute.type), forAttribute: field)
                } else if let toOne = entity.toOnes.first(where: { $0.name == field }) {
                    kept = value.json
                    references.append((target, record.id, toOne.name, value.text))
                    if let inverse = toOne.orderedInverse, let owner = value.text {
                        dirtyLists.insert(ListKey(owner: owner, relationship: inverse, element: nil))
                    }
                } else if let toOne = entity.toOnes.first(where: { SyncRecord.orderKey(of: $0.name) == field }) {
                    kept = value.json
                    let owner = record.fields[toOne.name]?.text ?? clocks[record.id]?[toOne.name]?.value.flatMap(SyncValue.decode)?.text
                    if let owner, let inverse = toOne.orderedInverse { dirtyLists.insert(ListKey(owner: owner, relationship: inverse, element: nil)) }
                } else {
                    continue   // a key this model does not have (another model version's)
                }
                let entry = LocalSyncTables.Clock(clock: clockText, value: kept)
                clocks[record.id, default: [:]][field] = entry
                writes.clocks.append((record.id, field, entry))
            }
            if changedHere { outcome.applied += 1 }
        }
        for record in dead {
            if object(record.id) != nil { outcome.applied += 1 }
            if let deleted = record.deleted { writes.clocks.append((record.id, LocalSyncTables.deletedField,
                                                                    LocalSyncTables.Clock(clock: deleted, value: nil))) }
            if let winner = record.mergedInto { writes.aliases.append((record.id, winner)) }
            guard let local = object(record.id) else {
                if identities[record.id] != nil { writes.removedIdentities.insert(record.id) }
                continue
            }
            doomed.append((record.id, local))
            writes.removedIdentities.insert(record.id)
        }
        // References: to the object each names now (merges followed), nil while it is not here.
        for reference in references {
            let target = reference.target.map(resolve).flatMap(object)
            try reference.object.setRelatedObjects(target.map { [$0] } ?? [], forKey: reference.relationship)
        }
        // Objects that arrived: references and links that waited for them.
        try container.readStore { sql in
            for id in created {
                guard let arrived = objects[id] else { continue }
                for (holder, field) in try LocalSyncTables.keys(keeping: SyncValue(.text(id)).json, sql) where field != SyncRecord.targetKey
                    && field != SyncRecord.ownerKey {
                    guard let owner = object(holder), schema.entities[owner.entity.name]?.toOnes.contains(where: { $0.name == field }) == true,
                          clocks[holder]?[field]?.value == SyncValue(.text(id)).json else { continue }
                    try owner.setRelatedObjects([arrived], forKey: field)
                }
            }
        }
        // Links.
        let linkRecords = records.filter { schema.links[$0.entity] != nil }
        for record in linkRecords {
            guard let link = schema.links[record.entity] else { continue }
            var linkChanged = false
            for (field, clockText) in record.clocks {
                guard let remote = HybridTimestamp(clockText) else { continue }
                outcome.clock.receive(remote)
                if let held = clocks[record.id]?[field].flatMap({ HybridTimestamp($0.clock) }), held >= remote { continue }
                let entry = LocalSyncTables.Clock(clock: clockText, value: (record.fields[field] ?? .null).json)
                clocks[record.id, default: [:]][field] = entry
                writes.clocks.append((record.id, field, entry))
                if field == SyncRecord.presentKey || field == SyncRecord.positionKey { linkChanged = true }
            }
            if linkChanged { outcome.applied += 1 }
            // A link merged into another (its end was merged): the other carries its state.
            guard record.mergedInto == nil, let ownerID = record.fields[SyncRecord.ownerKey]?.text,
                  let targetID = record.fields[SyncRecord.targetKey]?.text,
                  let owner = object(resolve(ownerID)), let target = object(resolve(targetID)) else { continue }
            let present = clocks[record.id]?[SyncRecord.presentKey]?.value == "1"
            var list = try owner.relatedObjects(forKey: link.relationship)
            let has = list.contains { $0 === target }
            if present && !has {
                list.append(target)
                try owner.setRelatedObjects(list, forKey: link.relationship)
            } else if !present && has {
                list.removeAll { $0 === target }
                try owner.setRelatedObjects(list, forKey: link.relationship)
            }
            if link.isOrdered { dirtyLists.insert(ListKey(owner: resolve(ownerID), relationship: link.relationship, element: nil)) }
        }
        // Links of objects that arrived, recorded before they did.
        if !created.isEmpty {
            try linkArrivals(created, object: object, resolve: resolve, dirtyLists: &dirtyLists)
        }
        // Deletions and merges: what pointed at a merged object moves to its winner; the object
        // goes with every link cleared, so that no delete rule acts.
        for (id, local) in doomed {
            let winner = object(resolve(id))
            for relationship in local.entity.relationships {
                let related = try local.relatedObjects(forKey: relationship.name)
                try local.setRelatedObjects([], forKey: relationship.name)
                guard let winner, winner !== local, relationship.kind != .toOne, !related.isEmpty else { continue }
                var merged = try winner.relatedObjects(forKey: relationship.name)
                for other in related where !merged.contains(where: { $0 === other }) { merged.append(other) }
                try winner.setRelatedObjects(merged, forKey: relationship.name)
            }
            context.delete(local)
        }
        var finder = ElementFinder(objects: objects, storeIdentifier: storeIdentifier)
        try order(dirtyLists, object: object, finder: &finder, clocks: &clocks)

        var finalState = state
        finalState["clock"] = outcome.clock.last.description
        let pulledState = finalState
        let bookkeeping = { (sql: StoreTransaction) throws in
            if let token {
                let later = try sql.rows("SELECT count(*) FROM \(StoreTransaction.quote(StoreTransaction.historyTable)) "
                                         + "WHERE id > ? AND (author IS NULL OR author <> ?)", [.integer(token.transactionNumber), .text(author)])
                if later.first?.first != .integer(0) { throw LocalChangesArrived() }
            }
            try LocalSyncTables.create(sql)
            for id in created {
                if let inserted = objects[id], let key = sql.permanentKey(for: inserted.objectID) {
                    try LocalSyncTables.setIdentity(id, entity: inserted.entity.name, key: key, sql)
                }
            }
            for id in writes.removedIdentities { try LocalSyncTables.removeIdentity(id, sql) }
            for (id, field, clock) in writes.clocks { try LocalSyncTables.setClock(id, field, clock, sql) }
            for (id, winner) in writes.aliases { try LocalSyncTables.setAlias(id, winner: winner, sql) }
            try LocalSyncTables.setState(pulledState, sql)
        }
        if context.hasChanges {
            try context.save(alongside: bookkeeping)
        } else {
            try container.performStoreTransaction(author: author, bookkeeping)
        }
        return outcome
    }

    /// Bookkeeping the save writes with the objects.
    private struct Writes {
        var clocks: [(id: String, field: String, clock: LocalSyncTables.Clock)] = []
        var aliases: [(id: String, winner: String)] = []
        var removedIdentities = Set<String>()
    }

    /// An ordered list whose order may have changed.
    struct ListKey: Hashable {
        let owner: String
        let relationship: String
        let element: String?
    }
}
