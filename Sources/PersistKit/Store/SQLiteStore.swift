import Foundation

/// The SQLite store behind a container: one writer connection, a pool of reader connections,
/// its schema, and a log of saves.
///
/// Saves run on the writer, one at a time behind `writerLock`, each in one `BEGIN IMMEDIATE`
/// transaction. Fetches, counts and every other read run on a reader of the pool (WAL mode):
/// they never wait for a save, and each statement (or ``withSnapshot(_:)``) reads one committed
/// snapshot (``withReader(_:)``; ``withConnection(_:)`` is the writer). An in-memory store has one connection, which reads and writes behind `writerLock`:
/// SQLite's in-memory databases have no WAL, so a second connection could not read beside a
/// writer anyway.
final class SQLiteStore: @unchecked Sendable {
    // @unchecked Sendable: `writer` and `statementSQL` are only touched while holding
    // `writerLock`; `changeLog`, `nextSequence`, `dataVersion` and `commitObservers` only
    // while holding `logLock`; `readers` is a pool with its own lock; the rest are lets.

    let model: ManagedObjectModel
    let identifier: String
    let description: StoreDescription
    /// Why the store can only be read (nil when it can be written).
    let readOnlyReason: String?
    private let writerLock = NSLock()
    private let writer: SQLiteConnection
    /// The reader connections; nil for an in-memory store (reads use the writer).
    let readers: ReaderPool?
    /// SQL text of the write statements, built once per entity and column set (under `writerLock`).
    private var statementSQL: [StatementKey: String] = [:]

    private let logLock = NSLock()
    private var changeLog: [StoreChange] = []
    private var nextSequence = 1
    private var dataVersion: Int64 = 0
    private var commitObservers: [@Sendable (StoreChange) -> Void] = []
    private static let maximumLoggedChanges = 1_000
    static let metadataTable = "_persistkit_metadata"

    init(model: ManagedObjectModel, description: StoreDescription) throws {
        self.model = model
        self.description = description
        let opened = try StoreOpener.open(model: model, description: description)
        writer = opened.connection
        identifier = opened.identifier
        readOnlyReason = opened.readOnlyReason
        readers = opened.readers.map { readers in
            ReaderPool(maximumCount: description.maximumReaderCount, open: readers.open)
        }
        dataVersion = try writer.singleInt("PRAGMA data_version") ?? 0
    }

    deinit {
        // Readers first: the writer, closed last, checkpoints the WAL and removes it.
        readers?.closeIdle()
    }

    /// Whether saves are refused: the store was opened read-only, or cannot be written.
    var isReadOnly: Bool { readOnlyReason != nil }

    /// The file path, or ":memory:".
    var displayPath: String { description.url?.path ?? ":memory:" }

    // MARK: Access

    /// Runs `body` with a reader connection of the pool (the writer, behind its lock, for an
    /// in-memory store): it runs beside saves, and each statement reads one committed snapshot;
    /// use ``withSnapshot(_:)`` for several statements that must agree. Every fetch, count and
    /// relationship read of a context comes here. Read-only: write with ``withConnection(_:)``.
    func withReader<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        guard let readers else { return try withConnection(body) }
        do {
            return try readers.withReader(body)
        } catch var error as PersistError {
            error.store = error.store ?? displayPath
            throw error
        }
    }

    /// Runs `body` with a reader holding one read transaction: every statement in it sees the
    /// same committed snapshot, whatever saves commit meanwhile.
    func withSnapshot<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try withReader { connection in
            try connection.inReadTransaction { try body(connection) }
        }
    }

    /// Runs `body` with the writer connection, holding the writer lock: it waits for a save
    /// in progress, and saves wait for it. For reads that must see the writer's state, and
    /// for writes outside a save (tests, maintenance).
    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        writerLock.lock()
        defer { writerLock.unlock() }
        do {
            return try body(writer)
        } catch var error as PersistError {
            error.store = error.store ?? displayPath
            throw error
        }
    }

    /// What a write statement's SQL depends on.
    enum StatementKey: Hashable {
        case insert(ObjectIdentifier)
        case update(ObjectIdentifier, SlotSet, Bool)
    }

    /// The SQL for a write statement, built by `make` the first time. Call with `writerLock` held.
    func cachedSQL(_ key: StatementKey, _ make: () -> String) -> String {
        if let sql = statementSQL[key] { return sql }
        let sql = make()
        statementSQL[key] = sql
        return sql
    }

    // MARK: Saving

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction on the writer; if it commits, logs the
    /// change it returns for the other contexts and tells the commit observers.
    ///
    /// Another process holding the write lock is waited for, up to the store's `busyTimeout`.
    func save(origin: Int, _ body: (SQLiteConnection) throws -> StoreChange) throws -> Int {
        if let readOnlyReason {
            throw PersistError(.cannotOpenStore, "The store \(displayPath) is read-only (\(readOnlyReason)): nothing was saved",
                               store: displayPath)
        }
        var change = try withConnection { writer in
            try writer.inImmediateTransaction { try body(writer) }
        }
        logLock.lock()
        change = StoreChange(sequence: nextSequence, origin: origin, inserted: change.inserted,
                             updated: change.updated, deleted: change.deleted)
        nextSequence += 1
        changeLog.append(change)
        if changeLog.count > SQLiteStore.maximumLoggedChanges {
            changeLog.removeFirst(changeLog.count - SQLiteStore.maximumLoggedChanges)
        }
        let observers = commitObservers
        logLock.unlock()
        for observer in observers { observer(change) }
        return change.sequence
    }

    /// Calls `observer` after every commit of this store's contexts, on the saving thread.
    func addCommitObserver(_ observer: @escaping @Sendable (StoreChange) -> Void) {
        logLock.lock()
        commitObservers.append(observer)
        logLock.unlock()
    }

    // MARK: Changes for other contexts

    /// The latest sequence number: a new context starts there.
    var currentSequence: Int {
        logLock.lock()
        defer { logLock.unlock() }
        return nextSequence - 1
    }

    /// Changes logged after `sequence` by other contexts, after probing (`PRAGMA data_version`)
    /// for commits by other processes. `complete` is false when the log no longer reaches back
    /// that far, or another process wrote: the reader must then refresh everything it holds.
    func changes(after sequence: Int, excluding origin: Int) -> (changes: [StoreChange], complete: Bool, latest: Int) {
        logLock.lock()
        defer { logLock.unlock() }
        if let version = probeDataVersion(), version != dataVersion {
            dataVersion = version
            changeLog.append(StoreChange(sequence: nextSequence, origin: 0, isExternal: true))
            nextSequence += 1
        }
        let latest = nextSequence - 1
        guard sequence < latest else { return ([], true, latest) }
        let oldest = changeLog.first?.sequence ?? nextSequence
        let complete = sequence + 1 >= oldest
        let newer = changeLog.filter { $0.sequence > sequence && $0.origin != origin }
        return (newer, complete && !newer.contains(where: \.isExternal), latest)
    }

    /// The writer's `PRAGMA data_version`, which changes when another process (or another
    /// container on the file) commits: the writer's own commits leave it alone, and readers
    /// never commit. Nil while a save holds the writer (the next probe sees the change), and
    /// for an in-memory store, which no other process can reach.
    private func probeDataVersion() -> Int64? {
        guard readers != nil, writerLock.try() else { return nil }
        defer { writerLock.unlock() }
        return try? writer.singleInt("PRAGMA data_version")
    }
}
