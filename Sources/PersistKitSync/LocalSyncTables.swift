import Foundation
import PersistKit

/// PersistKitSync's tables in the store file, beside the objects they describe, written in
/// the same transactions as the objects (a pull's save) or on their own (after a push):
///
/// - `_persistkit_sync_state`: the client ID, the space and server synced, the server
///   sequence pulled up to, the history transaction captured up to, the clock.
/// - `_persistkit_sync_objects`: each synced object's global ID beside its entity and key.
/// - `_persistkit_sync_clocks`: each key's clock reading, and for keys the store cannot hold
///   itself (an order key, a link's state, a reference to an object not here) the value.
/// - `_persistkit_sync_aliases`: objects merged into another (uniqueness), and into which.
enum LocalSyncTables {
    static let state = "_persistkit_sync_state"
    static let objects = "_persistkit_sync_objects"
    static let clocks = "_persistkit_sync_clocks"
    static let aliases = "_persistkit_sync_aliases"
    /// The key a deletion's reading is kept under in the clocks table.
    static let deletedField = "#deleted"

    static let createStatements = [
        "CREATE TABLE IF NOT EXISTS \(state) (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS \(objects) (entity TEXT NOT NULL, key INTEGER NOT NULL, id TEXT NOT NULL UNIQUE, "
            + "PRIMARY KEY (entity, key))",
        "CREATE TABLE IF NOT EXISTS \(clocks) (id TEXT NOT NULL, field TEXT NOT NULL, clock TEXT NOT NULL, value TEXT, "
            + "PRIMARY KEY (id, field)) WITHOUT ROWID",
        "CREATE INDEX IF NOT EXISTS \(clocks)_value ON \(clocks) (value) WHERE value IS NOT NULL",
        "CREATE TABLE IF NOT EXISTS \(aliases) (id TEXT PRIMARY KEY NOT NULL, winner TEXT NOT NULL) WITHOUT ROWID",
    ]

    static func create(_ sql: StoreTransaction) throws {
        for statement in createStatements { try sql.execute(statement) }
    }

    static func exist(_ sql: StoreTransaction) throws -> Bool {
        try sql.rows("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(state)]).first?.first == .integer(1)
    }

    // MARK: State

    static func stateValues(_ sql: StoreTransaction) throws -> [String: String] {
        guard try exist(sql) else { return [:] }
        var values: [String: String] = [:]
        for row in try sql.rows("SELECT key, value FROM \(state)") {
            if case .text(let key) = row[0], case .text(let value) = row[1] { values[key] = value }
        }
        return values
    }

    static func setState(_ values: [String: String], _ sql: StoreTransaction) throws {
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            try sql.execute("INSERT OR REPLACE INTO \(state) (key, value) VALUES (?, ?)", [.text(key), .text(value)])
        }
    }

    // MARK: Identity

    /// The global IDs of objects by key, for the keys given (those without one are missing).
    static func ids(of entity: String, keys: [Int64], _ sql: StoreTransaction) throws -> [Int64: String] {
        var found: [Int64: String] = [:]
        for chunk in keys.chunked(500) {
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            for row in try sql.rows("SELECT key, id FROM \(objects) WHERE entity = ? AND key IN (\(marks))",
                                    [.text(entity)] + chunk.map(SQLValue.integer)) {
                if case .integer(let key) = row[0], case .text(let id) = row[1] { found[key] = id }
            }
        }
        return found
    }

    /// The entity and key of objects by global ID, for the IDs given.
    static func keys(of ids: [String], _ sql: StoreTransaction) throws -> [String: (entity: String, key: Int64)] {
        var found: [String: (entity: String, key: Int64)] = [:]
        for chunk in ids.chunked(500) {
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            for row in try sql.rows("SELECT id, entity, key FROM \(objects) WHERE id IN (\(marks))", chunk.map(SQLValue.text)) {
                if case .text(let id) = row[0], case .text(let entity) = row[1], case .integer(let key) = row[2] {
                    found[id] = (entity, key)
                }
            }
        }
        return found
    }

    static func setIdentity(_ id: String, entity: String, key: Int64, _ sql: StoreTransaction) throws {
        try sql.execute("INSERT OR REPLACE INTO \(objects) (entity, key, id) VALUES (?, ?, ?)", [.text(entity), .integer(key), .text(id)])
    }

    static func removeIdentity(_ id: String, _ sql: StoreTransaction) throws {
        try sql.execute("DELETE FROM \(objects) WHERE id = ?", [.text(id)])
    }

    // MARK: Clocks

    /// A key's reading and kept value.
    struct Clock: Sendable {
        var clock: String
        var value: String?
    }

    /// The readings (and kept values) of the objects' keys, by ID and key.
    static func clocks(of ids: [String], _ sql: StoreTransaction) throws -> [String: [String: Clock]] {
        var found: [String: [String: Clock]] = [:]
        for chunk in Set(ids).sorted().chunked(500) {
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            for row in try sql.rows("SELECT id, field, clock, value FROM \(clocks) WHERE id IN (\(marks))", chunk.map(SQLValue.text)) {
                guard case .text(let id) = row[0], case .text(let field) = row[1], case .text(let clock) = row[2] else { continue }
                var value: String?
                if case .text(let text) = row[3] { value = text }
                found[id, default: [:]][field] = Clock(clock: clock, value: value)
            }
        }
        return found
    }

    static func setClock(_ id: String, _ field: String, _ clock: Clock, _ sql: StoreTransaction) throws {
        try sql.execute("INSERT OR REPLACE INTO \(clocks) (id, field, clock, value) VALUES (?, ?, ?, ?)",
                        [.text(id), .text(field), .text(clock.clock), clock.value.map(SQLValue.text) ?? .null])
    }

    /// The keys whose kept value is `value` (a reference to an object, a link's target): (ID, key).
    static func keys(keeping value: String, _ sql: StoreTransaction) throws -> [(id: String, field: String)] {
        try sql.rows("SELECT id, field FROM \(clocks) WHERE value = ?", [.text(value)]).compactMap { row in
            guard case .text(let id) = row[0], case .text(let field) = row[1] else { return nil }
            return (id, field)
        }
    }

    /// The link records of an owner's relationship (IDs starting `owner>relationship>`), with their keys.
    static func links(ownedBy owner: String, relationship: String, _ sql: StoreTransaction) throws -> [String: [String: Clock]] {
        var found: [String: [String: Clock]] = [:]
        // The range [prefix>, prefix?) holds exactly the IDs that start with the prefix ('?' follows '>').
        let prefix = owner + ">" + relationship
        for row in try sql.rows("SELECT id, field, clock, value FROM \(clocks) WHERE id >= ? AND id < ?",
                                [.text(prefix + ">"), .text(prefix + "?")]) {
            guard case .text(let id) = row[0], case .text(let field) = row[1], case .text(let clock) = row[2] else { continue }
            var value: String?
            if case .text(let text) = row[3] { value = text }
            found[id, default: [:]][field] = Clock(clock: clock, value: value)
        }
        return found
    }

    // MARK: Aliases

    static func aliases(_ sql: StoreTransaction) throws -> [String: String] {
        var found: [String: String] = [:]
        for row in try sql.rows("SELECT id, winner FROM \(aliases)") {
            if case .text(let id) = row[0], case .text(let winner) = row[1] { found[id] = winner }
        }
        return found
    }

    static func setAlias(_ id: String, winner: String, _ sql: StoreTransaction) throws {
        try sql.execute("INSERT OR REPLACE INTO \(aliases) (id, winner) VALUES (?, ?)", [.text(id), .text(winner)])
    }
}

extension Array {
    /// The elements in consecutive slices of at most `size`.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
