import Foundation

extension SQLiteStore {
    // MARK: Writing records

    /// Writes one history record for a transaction, inside the caller's write transaction (a
    /// save, a batch request), then removes what the retention policy no longer keeps.
    ///
    /// Call with the lock held, from inside ``save(origin:_:)``'s body, and put the returned
    /// id in the body's ``StoreChange/historyID``: the store then knows the record is its own.
    /// Returns nil (and writes nothing) when `changes` is empty.
    func recordHistory(_ changes: StoreHistoryChanges, author: String?, contextName: String?,
                       _ connection: SQLiteConnection) throws -> Int64? {
        guard !changes.isEmpty else { return nil }
        if !historyCursor.hasTable {
            // A store made by an older PersistKit: the table comes with this save, or not at all.
            for statement in StoreHistory.createStatements { try connection.execute(statement) }
        }
        let now = Date()
        let insert = try connection.cachedStatement(StoreHistory.insertSQL)
        try insert.bind([.real(now.timeIntervalSinceReferenceDate), author.map(SQLValue.text) ?? .null,
                         contextName.map(SQLValue.text) ?? .null, .text(changes.encoded())])
        try insert.run()
        let id = connection.lastInsertRowID
        try applyHistoryRetention(newest: id, now: now, connection)
        return id
    }

    /// Removes the records the store's ``HistoryRetention`` no longer keeps: each save does a
    /// range delete on the primary key and one on the timestamp index, nothing when there is
    /// nothing to remove.
    private func applyHistoryRetention(newest id: Int64, now: Date, _ connection: SQLiteConnection) throws {
        let retention = description.historyRetention
        guard retention.maximumAge != nil || retention.maximumTransactions.map({ id - Int64(max($0, 0)) >= 1 }) == true else { return }
        // Records a consumer has not read yet stay (`PersistentContainer.retainHistory`).
        let floor = try StoreHistory.retainedFloor(connection)
        if let count = retention.maximumTransactions, min(id - Int64(max(count, 0)), floor) >= 1 {
            try connection.singleInt(StoreHistory.purgeThroughSQL, [.integer(min(id - Int64(max(count, 0)), floor))])
        }
        if let age = retention.maximumAge {
            try connection.singleInt(StoreHistory.purgeOlderSQL, [.real(now.timeIntervalSinceReferenceDate - max(age, 0)), .integer(floor)])
        }
    }

    // MARK: Reading other connections' commits

    /// Where the history ends now: a new store starts reading there. A history that cannot be
    /// read does not keep the store from opening: its first other-process change is unknown.
    static func startHistoryCursor(_ connection: SQLiteConnection) -> StoreHistoryCursor {
        if let snapshot = try? StoreHistory.snapshot(after: nil, connection) { return StoreHistoryCursor(at: snapshot) }
        var cursor = StoreHistoryCursor(at: StoreHistory.Snapshot(dataVersion: 0, hasTable: false, sequence: 0, records: []))
        cursor.lose(dataVersion: (try? connection.singleInt("PRAGMA data_version")) ?? 0)
        return cursor
    }

    /// What other connections committed since the last look, one log entry per history record;
    /// a single entry with `isExternal` when that cannot be known exactly (the history was
    /// purged first, the store has none, a commit left no record). Nothing when no other
    /// connection committed. Call with the lock held.
    func externalChanges(_ connection: SQLiteConnection) -> [StoreChange] {
        guard let version = try? connection.singleInt("PRAGMA data_version"), version != historyCursor.dataVersion else { return [] }
        let unknown = [StoreChange(sequence: 0, origin: 0, isExternal: true)]
        do {
            var snapshot = try StoreHistory.snapshot(after: historyCursor.lastSeen, connection)
            if historyCursor.needsConfirmation(snapshot) && !isReadOnly {
                // Most likely a commit under way; if so, its record is read at the next look.
                guard let locked = try StoreHistory.lockedSnapshot(after: historyCursor.lastSeen, connection) else { return [] }
                snapshot = locked
            }
            return historyCursor.advance(to: snapshot) ?? unknown
        } catch {
            historyCursor.lose(dataVersion: version)
            return unknown
        }
    }

    // MARK: Consumers that keep history

    /// Keeps the records after `id` (every record for 0) from being purged until
    /// ``releaseHistory(for:)``, for `consumer`; nil for `id` ends the hold.
    func retainHistory(after id: Int64?, for consumer: String) throws {
        if let readOnlyReason {
            throw PersistError(.cannotOpenStore, "The store \(displayPath) is read-only (\(readOnlyReason)): no history can be retained",
                               store: displayPath)
        }
        try withConnection { connection in
            try connection.inImmediateTransaction {
                let key = StoreHistory.consumerKeyPrefix + consumer
                if let id {
                    try connection.singleInt("INSERT OR REPLACE INTO \(SQLName.quote(SQLiteStore.metadataTable)) (key, value) VALUES (?, ?)",
                                             [.text(key), .text(String(max(id, 0)))])
                } else {
                    try connection.singleInt("DELETE FROM \(SQLName.quote(SQLiteStore.metadataTable)) WHERE key = ?", [.text(key)])
                }
            }
        }
    }

    /// The consumers holding history, each with the newest record it no longer needs.
    func historyConsumers() throws -> [String: Int64] {
        try withReader { connection in try StoreHistory.consumers(connection) }
    }

    // MARK: Public history

    /// Every record after `id` (all records for nil), oldest first.
    ///
    /// - Throws: ``PersistError`` `.historyExpired` when records after `id` were purged.
    func historyRecords(after id: Int64?) throws -> [StoreHistory.Record] {
        try withConnection { connection in
            let snapshot = try StoreHistory.snapshot(after: id ?? 0, connection)
            if let id, snapshot.hasTable, !snapshot.isComplete(after: id), snapshot.sequence > id {
                throw PersistError(.historyExpired, "The history after transaction \(id) was purged: read the objects again "
                                   + "instead, and continue from the newest transaction", store: displayPath)
            }
            return snapshot.records
        }
    }

    /// The id of the newest record ever written (0 before the first), or nil when the store has
    /// no history.
    func newestHistoryID() throws -> Int64? {
        try withConnection { connection in
            let snapshot = try StoreHistory.snapshot(after: nil, connection)
            return snapshot.hasTable ? snapshot.sequence : nil
        }
    }

    /// Removes the records before id `id`, or older than `date`; returns how many went.
    func purgeHistory(before id: Int64?, olderThan date: Date?) throws -> Int {
        if let readOnlyReason {
            throw PersistError(.cannotOpenStore, "The store \(displayPath) is read-only (\(readOnlyReason)): no history was purged",
                               store: displayPath)
        }
        return try withConnection { connection in
            try connection.inImmediateTransaction {
                guard (try connection.singleInt(StoreHistory.hasTableSQL) ?? 0) > 0 else { return 0 }
                var removed = 0
                let floor = try StoreHistory.retainedFloor(connection)
                if let id {
                    try connection.singleInt(StoreHistory.purgeThroughSQL, [.integer(min(id - 1, floor))])
                    removed += connection.changes
                }
                if let date {
                    try connection.singleInt(StoreHistory.purgeOlderSQL, [.real(date.timeIntervalSinceReferenceDate), .integer(floor)])
                    removed += connection.changes
                }
                return removed
            }
        }
    }
}
