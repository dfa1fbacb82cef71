import Foundation
import PersistKit

/// The local changes since the last push, read from the persistent history: each changed
/// key of each changed object, stamped with a clock reading taken at the time of the
/// transaction that last changed it, with the value the object holds now.
///
/// The stamps follow from the history and the clock as the last push left it, so a capture
/// repeated after a crash (the push reached the server, its local bookkeeping did not commit)
/// stamps the same changes the same way, and pushing them again changes nothing.
struct ChangeCapture {
    let container: PersistentContainer
    let schema: SyncSchema
    let author: String
    let storeIdentifier: String
    /// The configured wall clock's distance from the system's, in seconds: a transaction's
    /// time (the system's, recorded at its save) is read on the configured clock.
    let clockOffset: TimeInterval

    /// What a capture found, and the bookkeeping to commit once the server has it.
    struct Batch {
        var records: [SyncRecord] = []
        /// The history transaction captured up to.
        var token: HistoryToken?
        var clock: HybridClock
        /// Global IDs of local objects seen for the first time (name-based, see ``GlobalID``).
        var newIdentities: [(id: String, entity: String, key: Int64)] = []
        /// Objects deleted here: their IDs leave the identity table.
        var deletedIDs: [String] = []
        /// Each pushed key's reading and (for keys the store does not hold itself) value.
        var clocks: [(id: String, field: String, clock: LocalSyncTables.Clock)] = []
    }

    /// What happened to one object in the transactions read.
    private struct Touched {
        var inserted: HybridTimestamp?
        var deleted: HybridTimestamp?
        var keys: [String: HybridTimestamp] = [:]
    }

    private struct ObjectKey: Hashable {
        let entity: String
        let key: Int64
    }

    /// The changes after `captured` (every object when nil: the first sync; every transaction
    /// when it holds nil: the store had no history then), stamped with `clock`.
    func capture(after captured: HistoryToken??, clock start: HybridClock) throws -> Batch {
        var clock = start
        var touched: [ObjectKey: Touched] = [:]
        var order: [ObjectKey] = []
        var newToken = captured ?? nil
        if let captured {
            for transaction in try container.history(after: captured) {
                newToken = transaction.token
                guard transaction.author != author else { continue }
                let changes = transaction.changes.filter { schema.entities[$0.objectID.entityName] != nil }
                guard !changes.isEmpty else { continue }
                let stamp = clock.tick(at: transaction.timestamp.addingTimeInterval(clockOffset))
                for change in changes {
                    guard let key = change.objectID.primaryKey else { continue }
                    let object = ObjectKey(entity: change.objectID.entityName, key: key)
                    if touched[object] == nil { order.append(object) }
                    switch change.kind {
                    case .insert: touched[object, default: Touched()].inserted = stamp
                    case .delete: touched[object, default: Touched()].deleted = stamp
                    case .update: for name in change.changedKeys { touched[object, default: Touched()].keys[name] = stamp }
                    }
                }
            }
        } else {
            // The first sync: every object is new to the server.
            newToken = try container.currentHistoryToken()
            let stamp = clock.tick(at: Date().addingTimeInterval(clockOffset))
            try container.readStore { sql in
                for name in schema.order {
                    for row in try sql.rows("SELECT \(StoreTransaction.quote(StoredEntityLayout.primaryKeyColumn)) FROM "
                                            + StoreTransaction.quote(name) + " ORDER BY 1") {
                        guard case .integer(let key) = row[0] else { continue }
                        let object = ObjectKey(entity: name, key: key)
                        touched[object] = Touched(inserted: stamp)
                        order.append(object)
                    }
                }
            }
        }
        var batch = Batch(token: newToken, clock: clock)
        guard !touched.isEmpty else { return batch }
        try container.readStore { sql in
            try build(&batch, touched: touched, order: order, sql)
        }
        return batch
    }

    // MARK: Building the records

    private func build(_ batch: inout Batch, touched: [ObjectKey: Touched], order: [ObjectKey], _ sql: StoreTransaction) throws {
        var resolver = IdentityResolver(store: storeIdentifier)
        // The objects, as they stand now (those deleted since are missing).
        var rows: [ObjectKey: [String: SQLValue]] = [:]
        for (entity, keys) in Dictionary(grouping: order, by: \.entity) {
            guard let described = schema.entities[entity] else { continue }
            for (key, values) in try readRows(described, keys: keys.map(\.key), sql) { rows[ObjectKey(entity: entity, key: key)] = values }
            try resolver.load(entity, keys: keys.map(\.key), sql)
        }
        // References name objects by key: their IDs.
        for described in schema.entities.values {
            for toOne in described.toOnes {
                let keys = rows.filter { $0.key.entity == described.name }.compactMap { row -> Int64? in
                    if case .integer(let key) = row.value[toOne.name] ?? .null { return key }
                    return nil
                }
                try resolver.load(toOne.destination, keys: keys, sql)
            }
        }
        // What each updated object's to-ones last synced (pushed or pulled): a to-one holding
        // that value again was not set, only its place in a list moved (or it was set back).
        let updatedWithToOnes = order.filter { object in
            guard let change = touched[object], change.inserted == nil, let described = schema.entities[object.entity] else { return false }
            return described.toOnes.contains { change.keys[$0.name] != nil }
        }
        let synced = try LocalSyncTables.clocks(of: updatedWithToOnes.map { resolver.id($0.entity, $0.key) }, sql)
        var orderedOwners: [OrderedList: HybridTimestamp] = [:]
        for object in order {
            guard let change = touched[object], let described = schema.entities[object.entity] else { continue }
            let id = resolver.id(object.entity, object.key)
            if let deleted = change.deleted, rows[object] == nil {
                // Deleted (inserted in between or not): a tombstone, also for an object the
                // server may not have (a push whose bookkeeping did not commit).
                batch.records.append(SyncRecord(id: id, entity: object.entity, deleted: deleted.description))
                batch.deletedIDs.append(id)
                continue
            }
            guard let values = rows[object] else { continue }
            if resolver.isNew(object.entity, object.key) { batch.newIdentities.append((id, object.entity, object.key)) }
            var record = SyncRecord(id: id, entity: object.entity)
            func stamp(_ name: String) -> HybridTimestamp? { change.inserted.map { inserted in max(inserted, change.keys[name] ?? inserted) } ?? change.keys[name] }
            // A key an insert left at its default was set by nobody: it loses to any value set
            // on purpose. Two stores that each make a singleton (a settings record, a day's
            // record) keep the one's settings, not the newer one's defaults.
            func stamp(_ name: String, holdingDefault: Bool) -> HybridTimestamp? {
                holdingDefault && change.inserted != nil && change.keys[name] == nil ? .zero : stamp(name)
            }
            for attribute in described.attributes {
                let value = values[attribute.name] ?? .null
                guard let at = stamp(attribute.name, holdingDefault: value == (attribute.defaultValue ?? .null)) else { continue }
                record.fields[attribute.name] = SyncValue(value)
                record.clocks[attribute.name] = at.description
                batch.clocks.append((id, attribute.name, LocalSyncTables.Clock(clock: at.description, value: nil)))
            }
            for toOne in described.toOnes {
                guard let at = stamp(toOne.name, holdingDefault: (values[toOne.name] ?? .null) == .null) else { continue }
                var reference = SyncValue.null
                if case .integer(let key) = values[toOne.name] ?? .null { reference = SyncValue(.text(resolver.id(toOne.destination, key))) }
                if let inverse = toOne.orderedInverse, let owner = reference.text {
                    let list = OrderedList(owner: owner, ownerEntity: toOne.destination, relationship: inverse,
                                           elementEntity: object.entity, toOne: toOne.name)
                    orderedOwners[list] = max(orderedOwners[list] ?? at, at)
                }
                // Stamped again, an unchanged reference would beat another store's later move of
                // the object (a reorder is the order key's change, pushed by captureOrder).
                if change.inserted == nil, let last = synced[id]?[toOne.name], last.value == reference.json { continue }
                record.fields[toOne.name] = reference
                record.clocks[toOne.name] = at.description
                batch.clocks.append((id, toOne.name, LocalSyncTables.Clock(clock: at.description, value: reference.json)))
            }
            for link in described.links {
                guard let at = stamp(link.relationship) else { continue }
                try captureLinks(of: id, key: object.key, link, at: at, &batch, &resolver, sql)
            }
            if !record.clocks.isEmpty { batch.records.append(record) }
        }
        for (list, stamp) in orderedOwners.sorted(by: { ($0.key.owner, $0.key.relationship) < ($1.key.owner, $1.key.relationship) }) {
            try captureOrder(of: list, at: stamp, &batch, &resolver, sql)
        }
    }

    /// The values of `keys`' rows of an entity, by key and column.
    private func readRows(_ entity: SyncSchema.Entity, keys: [Int64], _ sql: StoreTransaction) throws -> [Int64: [String: SQLValue]] {
        let columns = entity.attributes.map(\.name) + entity.toOnes.map(\.name)
        let list = ([StoredEntityLayout.primaryKeyColumn] + columns).map(StoreTransaction.quote).joined(separator: ", ")
        var found: [Int64: [String: SQLValue]] = [:]
        for chunk in keys.chunked(500) {
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            for row in try sql.rows("SELECT \(list) FROM \(StoreTransaction.quote(entity.layout.table)) WHERE "
                                    + "\(StoreTransaction.quote(StoredEntityLayout.primaryKeyColumn)) IN (\(marks))",
                                    chunk.map(SQLValue.integer)) {
                guard case .integer(let key) = row[0] else { continue }
                var values: [String: SQLValue] = [:]
                for (index, column) in columns.enumerated() { values[column] = row[index + 1] }
                found[key] = values
            }
        }
        return found
    }

    /// The links an owner's join-table relationship gained and lost since the last push (its
    /// current destinations against the links recorded present), and for an ordered one the
    /// order keys of the links that moved.
    private func captureLinks(of owner: String, key: Int64, _ link: SyncSchema.Link, at stamp: HybridTimestamp, _ batch: inout Batch,
                              _ resolver: inout IdentityResolver, _ sql: StoreTransaction) throws {
        let columns = StoredEntityLayout.joinColumns
        let rows = try sql.rows("SELECT \(StoreTransaction.quote(columns.destination)) FROM \(StoreTransaction.quote(link.table)) "
                                + "WHERE \(StoreTransaction.quote(columns.owner)) = ?"
                                + (link.isOrdered ? " ORDER BY \(StoreTransaction.quote(columns.position))" : ""), [.integer(key)])
        let targetKeys = rows.compactMap { row -> Int64? in if case .integer(let key) = row[0] { return key } else { return nil } }
        try resolver.load(link.destination, keys: targetKeys, sql)
        let current = targetKeys.map { resolver.id(link.destination, $0) }
        let registered = try LocalSyncTables.links(ownedBy: owner, relationship: link.relationship, sql)
        let present = Set(registered.filter { $0.value[SyncRecord.presentKey]?.value == "1" }.compactMap { $0.value[SyncRecord.targetKey]?.value.flatMap(SyncValue.decode)?.text })
        var records: [String: SyncRecord] = [:]
        func record(_ target: String) -> SyncRecord {
            let id = SyncRecord.linkID(owner: owner, relationship: link.relationship, target: target)
            return records[id] ?? SyncRecord(id: id, entity: link.entity,
                                             fields: [SyncRecord.ownerKey: SyncValue(.text(owner)), SyncRecord.targetKey: SyncValue(.text(target))],
                                             clocks: [SyncRecord.ownerKey: HybridTimestamp.zero.description,
                                                      SyncRecord.targetKey: HybridTimestamp.zero.description])
        }
        func set(_ target: String, _ field: String, _ value: SyncValue) {
            var changed = record(target)
            changed.fields[field] = value
            changed.clocks[field] = stamp.description
            records[changed.id] = changed
        }
        for target in current where !present.contains(target) { set(target, SyncRecord.presentKey, SyncValue(.integer(1))) }
        for target in present.subtracting(current) { set(target, SyncRecord.presentKey, SyncValue(.integer(0))) }
        if link.isOrdered {
            let keys = current.map { target in
                registered[SyncRecord.linkID(owner: owner, relationship: link.relationship, target: target)]?[SyncRecord.positionKey]?
                    .value.flatMap(SyncValue.decode)?.text
            }
            for (index, key) in OrderKey.rekey(keys) { set(current[index], SyncRecord.positionKey, SyncValue(.text(key))) }
        }
        for changed in records.values.sorted(by: { $0.id < $1.id }) {
            batch.records.append(changed)
            for (field, clock) in changed.clocks {
                batch.clocks.append((changed.id, field, LocalSyncTables.Clock(clock: clock, value: changed.fields[field]?.json)))
            }
        }
    }

    /// An ordered to-many whose order may have changed: its owner and the elements' to-one.
    private struct OrderedList: Hashable {
        let owner: String
        let ownerEntity: String
        let relationship: String
        let elementEntity: String
        let toOne: String
    }

    /// New order keys for the elements of an ordered list (kept in the elements' to-one) that
    /// moved: the rest keep theirs.
    private func captureOrder(of list: OrderedList, at stamp: HybridTimestamp, _ batch: inout Batch, _ resolver: inout IdentityResolver,
                              _ sql: StoreTransaction) throws {
        guard let owner = try resolver.key(of: list.owner, entity: list.ownerEntity, sql),
              let element = schema.entities[list.elementEntity],
              let positionColumn = element.toOnes.first(where: { $0.name == list.toOne })?.positionColumn else { return }
        let pk = StoreTransaction.quote(StoredEntityLayout.primaryKeyColumn)
        let rows = try sql.rows("SELECT \(pk) FROM \(StoreTransaction.quote(element.layout.table)) WHERE "
                                + "\(StoreTransaction.quote(list.toOne)) = ? ORDER BY \(StoreTransaction.quote(positionColumn)), \(pk)",
                                [.integer(owner)])
        let keys = rows.compactMap { row -> Int64? in if case .integer(let key) = row[0] { return key } else { return nil } }
        try resolver.load(list.elementEntity, keys: keys, sql)
        let ids = keys.map { resolver.id(list.elementEntity, $0) }
        let field = SyncRecord.orderKey(of: list.toOne)
        let stored = try LocalSyncTables.clocks(of: ids, sql)
        // Keys this capture already gave (an element new to the list in this batch).
        var pending: [String: String] = [:]
        for entry in batch.clocks where entry.field == field { pending[entry.id] = entry.clock.value.flatMap(SyncValue.decode)?.text }
        let existing = ids.map { pending[$0] ?? stored[$0]?[field]?.value.flatMap(SyncValue.decode)?.text }
        for (index, key) in OrderKey.rekey(existing) {
            let value = SyncValue(.text(key))
            if let position = batch.records.firstIndex(where: { $0.id == ids[index] }) {
                batch.records[position].fields[field] = value
                batch.records[position].clocks[field] = stamp.description
            } else {
                batch.records.append(SyncRecord(id: ids[index], entity: list.elementEntity, fields: [field: value],
                                                clocks: [field: stamp.description]))
            }
            batch.clocks.append((ids[index], field, LocalSyncTables.Clock(clock: stamp.description, value: value.json)))
        }
    }
}

extension SyncValue {
    /// The value's JSON text, as the clocks table keeps it.
    var json: String { (try? JSONEncoder.sorted.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null" }

    /// The value of JSON text kept in the clocks table.
    static func decode(_ json: String) -> SyncValue? { try? JSONDecoder().decode(SyncValue.self, from: Data(json.utf8)) }
}
