import Foundation

/// The persistent history table: one row per saved transaction, written in the save's own
/// SQLite transaction.
///
/// Ids come from `AUTOINCREMENT`, so they are never reused (even after every record is purged)
/// and consecutive across committed transactions (a rolled-back save gives its id back). A
/// reader that saw record `n` therefore knows it has everything when the next records are
/// exactly `n + 1` up to the largest id ever given (`sqlite_sequence`); a hole means records
/// were purged before it read them.
enum StoreHistory {
    static let table = "_persistkit_history"
    static let timestampIndex = "_persistkit_history_timestamp"

    /// Creates the table and its index (when missing: a store made by an older PersistKit has
    /// neither until its first save here).
    static let createStatements = [
        "CREATE TABLE IF NOT EXISTS \(SQLName.quote(table)) (id INTEGER PRIMARY KEY AUTOINCREMENT, "
            + "timestamp REAL NOT NULL, author TEXT, context TEXT, changes TEXT NOT NULL)",
        "CREATE INDEX IF NOT EXISTS \(SQLName.quote(timestampIndex)) ON \(SQLName.quote(table)) (timestamp)",
    ]

    static let insertSQL = "INSERT INTO \(SQLName.quote(table)) (timestamp, author, context, changes) VALUES (?, ?, ?, ?)"
    static let purgeThroughSQL = "DELETE FROM \(SQLName.quote(table)) WHERE id <= ?"
    /// Records older than a date, up to the newest record every consumer is done with.
    static let purgeOlderSQL = "DELETE FROM \(SQLName.quote(table)) WHERE timestamp < ? AND id <= ?"
    static let selectAfterSQL = "SELECT id, timestamp, author, context, changes FROM \(SQLName.quote(table)) WHERE id > ? ORDER BY id"
    static let hasTableSQL = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(table)'"
    static let sequenceSQL = "SELECT seq FROM sqlite_sequence WHERE name = '\(table)'"

    /// Metadata keys of the consumers that keep history (`PersistentContainer.retainHistory`):
    /// the prefix, then the consumer's name; the value is the newest record it no longer needs.
    static let consumerKeyPrefix = "historyConsumer."

    /// The consumers keeping history, each with the newest record it no longer needs.
    static func consumers(_ connection: SQLiteConnection) throws -> [String: Int64] {
        let statement = try connection.cachedStatement(
            "SELECT key, value FROM \(SQLName.quote(SQLiteStore.metadataTable)) WHERE key >= ? AND key < ?")
        defer { statement.reset() }
        try statement.bind([.text(consumerKeyPrefix), .text(consumerKeyPrefix.dropLast() + "/")])
        var consumers: [String: Int64] = [:]
        while try statement.step() {
            consumers[String(statement.string(at: 0).dropFirst(consumerKeyPrefix.count))] = Int64(statement.string(at: 1)) ?? 0
        }
        return consumers
    }

    /// The newest record every consumer is done with: purges go no further (`Int64.max` when
    /// no consumer keeps history).
    static func retainedFloor(_ connection: SQLiteConnection) throws -> Int64 {
        try consumers(connection).values.min() ?? .max
    }

    /// One record as stored; its changes are decoded by whoever needs them.
    struct Record: Sendable {
        let id: Int64
        let timestamp: Date
        let author: String?
        let contextName: String?
        let changesText: String

        func changes() throws -> StoreHistoryChanges {
            try StoreHistoryChanges.decode(changesText, record: id)
        }
    }

    /// The history as one read transaction saw it.
    struct Snapshot {
        /// `PRAGMA data_version` in that transaction.
        var dataVersion: Int64
        /// Whether the store has a history table (a store made by an older PersistKit may not).
        var hasTable: Bool
        /// The largest record id ever given (0 before the first record).
        var sequence: Int64
        /// The records after the id asked for, ascending (none when none were asked for).
        var records: [Record]

        /// Whether `records` are every record after `id`: none was purged before being read.
        func isComplete(after id: Int64) -> Bool {
            guard sequence >= id else { return false }
            guard let first = records.first else { return sequence == id }
            return first.id == id + 1 && records.last?.id == sequence && Int64(records.count) == sequence - id
        }
    }

    /// Reads, in one read transaction, the data version, whether there is history, and (when
    /// `after` is given) the records after that id.
    static func snapshot(after: Int64?, _ connection: SQLiteConnection) throws -> Snapshot {
        guard !connection.isInTransaction else {
            throw PersistError(.misuse, "History was read inside a write transaction")
        }
        try connection.execute("BEGIN")
        defer { try? connection.execute("COMMIT") }
        return try read(after: after, connection)
    }

    /// The same, read holding the write lock, so that no commit is half done; nil when another
    /// connection is writing now (the lock is not waited for).
    ///
    /// A writer that restarts the WAL (at its commit, or when a large transaction spills)
    /// changes the WAL header before its commit is visible: `PRAGMA data_version` moves for
    /// other connections with no new record to read yet. Under the write lock that cannot be.
    static func lockedSnapshot(after: Int64?, _ connection: SQLiteConnection) throws -> Snapshot? {
        guard !connection.isInTransaction else {
            throw PersistError(.misuse, "History was read inside a write transaction")
        }
        let timeout = try connection.singleInt("PRAGMA busy_timeout") ?? 0
        try connection.execute("PRAGMA busy_timeout = 0")
        defer { try? connection.execute("PRAGMA busy_timeout = \(timeout)") }
        do {
            try connection.execute("BEGIN IMMEDIATE")
        } catch let error as PersistError where error.sqliteCode?.primary == SQLiteResultCode.busy {
            return nil
        }
        defer { try? connection.execute("ROLLBACK") }
        return try read(after: after, connection)
    }

    private static func read(after: Int64?, _ connection: SQLiteConnection) throws -> Snapshot {
        var snapshot = Snapshot(dataVersion: 0, hasTable: (try connection.singleInt(hasTableSQL) ?? 0) > 0, sequence: 0, records: [])
        if snapshot.hasTable {
            snapshot.sequence = try connection.singleInt(sequenceSQL) ?? 0
            if let after { snapshot.records = try records(after: after, connection) }
        }
        // Read last, inside the same transaction: the version of the snapshot read above.
        snapshot.dataVersion = try connection.singleInt("PRAGMA data_version") ?? 0
        return snapshot
    }

    private static func records(after id: Int64, _ connection: SQLiteConnection) throws -> [Record] {
        let statement = try connection.cachedStatement(selectAfterSQL)
        defer { statement.reset() }
        statement.bind(id, at: 1)
        var records: [Record] = []
        while try statement.step() {
            records.append(Record(id: statement.int64(at: 0), timestamp: Date(timeIntervalSinceReferenceDate: statement.double(at: 1)),
                                  author: statement.isNull(at: 2) ? nil : statement.string(at: 2),
                                  contextName: statement.isNull(at: 3) ? nil : statement.string(at: 3),
                                  changesText: statement.string(at: 4)))
        }
        return records
    }
}
