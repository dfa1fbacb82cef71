/// How far a store's connection has read the persistent history: what it knows of other
/// connections' (other processes', other containers') commits.
///
/// `PRAGMA data_version` says when another connection committed; the records after
/// ``lastSeen`` say what it changed. When they cannot say (the history was purged before it
/// was read, the store has no history, a commit left no record), the change is unknown and
/// readers refresh everything they hold.
struct StoreHistoryCursor {
    /// `PRAGMA data_version` when the history was last read.
    var dataVersion: Int64 = 0
    /// The newest record id read (0 before the first); nil when the store had no history table.
    var lastSeen: Int64?
    /// Records this store wrote after ``lastSeen``: its own saves, already in its change log.
    var ownRecords: Set<Int64> = []
    /// Whether the store is known to have a history table (so a save need not create it).
    var hasTable = false

    /// A cursor at the end of the history as `snapshot` saw it.
    init(at snapshot: StoreHistory.Snapshot) {
        dataVersion = snapshot.dataVersion
        hasTable = snapshot.hasTable
        lastSeen = snapshot.hasTable ? snapshot.sequence : nil
    }

    /// After a committed save of this store wrote record `id`.
    mutating func noteOwnRecord(_ id: Int64) {
        hasTable = true
        if lastSeen == id - 1 && ownRecords.isEmpty {
            // Nothing unread before it: no need to remember it.
            lastSeen = id
        } else {
            ownRecords.insert(id)
        }
    }

    /// Whether `snapshot` shows no record of another connection although one committed (the
    /// data version moved): worth reading again under the write lock before calling the change
    /// unknown (see ``StoreHistory/lockedSnapshot(after:_:)``).
    func needsConfirmation(_ snapshot: StoreHistory.Snapshot) -> Bool {
        guard snapshot.hasTable, let lastSeen, snapshot.isComplete(after: lastSeen) else { return false }
        return snapshot.records.allSatisfy { ownRecords.contains($0.id) }
    }

    /// Moves to the end of `snapshot` (read after ``lastSeen``) and returns what other
    /// connections changed, one entry per record, or nil when that cannot be known exactly.
    mutating func advance(to snapshot: StoreHistory.Snapshot) -> [StoreChange]? {
        let previous = lastSeen
        dataVersion = snapshot.dataVersion
        hasTable = snapshot.hasTable
        lastSeen = snapshot.hasTable ? snapshot.sequence : nil
        defer { ownRecords = ownRecords.filter { $0 > (lastSeen ?? .max) } }
        // No history, or it appeared just now (another process added it to an older store).
        guard snapshot.hasTable, let previous else { return nil }
        guard snapshot.isComplete(after: previous) else { return nil }
        let others = snapshot.records.filter { !ownRecords.contains($0.id) }
        // Another connection committed (the version changed), but left no record: a purge,
        // an older PersistKit, or another program.
        guard !others.isEmpty else { return nil }
        var changes: [StoreChange] = []
        changes.reserveCapacity(others.count)
        for record in others {
            guard let recorded = try? record.changes() else { return nil }
            changes.append(recorded.storeChange(origin: 0))
        }
        return changes
    }

    /// After the history could not be read: the next look starts again from its end.
    mutating func lose(dataVersion version: Int64) {
        dataVersion = version
        lastSeen = nil
        ownRecords.removeAll()
    }
}
