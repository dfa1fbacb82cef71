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
    // @unchecked Sendable: `writer`, `statementSQL`, `historyCursor` and `recordsStaleModel` are
    // only touched while holding `writerLock`; `changeLog`, `nextSequence`, `readCount` and
    // `commitObservers` only while holding `logLock`; `saveParticipants` only holding
    // `saveParticipantsLock`; `readers` is a pool with its own lock; the rest are lets.

    let model: ManagedObjectModel
    let identifier: String
    let description: StoreDescription
    /// The container's log sink: its connections' statements, and its contexts' events unless a
    /// context has a logger of its own (nil: nothing is logged).
    let logSink: LogSink?
    /// The container's logger and logging settings, for its contexts.
    let logSettings: LogSettings
    /// Why the store can only be read (nil when it can be written).
    let readOnlyReason: String?
    /// Whether the store works inside a migration's open transaction (see
    /// ``init(migrating:model:store:)``): saves are savepoints, and run the delete actions
    /// SQLite would (foreign-key enforcement is off during a migration).
    let isInMigration: Bool
    private let writerLock = NSLock()
    private let writer: SQLiteConnection
    /// The reader connections; nil for an in-memory store or a migration (reads use the writer).
    let readers: ReaderPool?
    /// SQL text of the write statements, built once per entity and column set (under `writerLock`).
    private var statementSQL: [StatementKey: String] = [:]
    /// How far the persistent history has been read: other processes' commits (under `writerLock`).
    var historyCursor: StoreHistoryCursor
    /// Whether the metadata lacks the model's document (a store written before stores recorded
    /// it): the next save records it, in its transaction (under `writerLock`).
    private var recordsStaleModel: Bool
    /// The folder of the values of `.externalStorage` attributes kept outside the database; nil
    /// for an in-memory store (which keeps them in their rows) and a model without any.
    let externalData: ExternalDataFolder?

    private let logLock = NSLock()
    private var changeLog: [StoreChange] = []
    private var nextSequence = 1
    private var commitObservers: [@Sendable (StoreChange) -> Void] = []
    /// Code that runs inside a context's save transaction, by the context's identity (see
    /// `ManagedObjectContext.save(alongside:)`); only touched holding `saveParticipantsLock`.
    var saveParticipants: [Int: (StoreTransaction) throws -> Void] = [:]
    let saveParticipantsLock = NSLock()
    /// How many reads ran so far (`withReader`, and `withConnection`): tests count the queries a
    /// fetch or a relationship read runs.
    private var readCount = 0
    private static let maximumLoggedChanges = 1_000
    static let metadataTable = "_persistkit_metadata"

    /// Opens (or creates) the store; a store of an older model version is migrated by
    /// `migrator` first (without one, it is refused).
    init(model: ManagedObjectModel, description: StoreDescription, migrator: StoreMigrating? = nil,
         logSettings: LogSettings = LogSettings()) throws {
        self.model = model
        self.description = description
        self.logSettings = logSettings
        let logSink = LogSink.make(logger: logSettings.logger, settings: logSettings)
        self.logSink = logSink
        let opened = try StoreOpener.open(model: model, description: description, migrator: migrator, logSink: logSink,
                                          logSettings: logSettings)
        writer = opened.connection
        identifier = opened.identifier
        readOnlyReason = opened.readOnlyReason
        recordsStaleModel = opened.recordsStaleModel
        isInMigration = false
        readers = opened.readers.map { readers in
            ReaderPool(maximumCount: description.maximumReaderCount, open: readers.open)
        }
        historyCursor = SQLiteStore.startHistoryCursor(opened.connection)
        externalData = opened.externalData
    }

    /// A store over a migration's connection, inside its open transaction, with one of the
    /// migration's models (the old one before a stage's schema change, the new one after):
    /// the contexts of custom stages read and save through it, and everything they save
    /// commits or rolls back with the migration. It has no readers: a reader would not see
    /// the migration's uncommitted rows.
    init(migrating connection: SQLiteConnection, model: ManagedObjectModel, store: StoreIdentity) {
        self.model = model
        description = store.description
        logSink = connection.logSink
        logSettings = store.logSettings
        writer = connection
        identifier = store.identifier
        readOnlyReason = nil
        recordsStaleModel = false
        isInMigration = true
        readers = nil
        historyCursor = SQLiteStore.startHistoryCursor(connection)
        externalData = model.hasExternalStorage ? store.externalData : nil
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
        countRead()
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

    /// How many reads ran on the connection so far (see `readCount`).
    var readsRun: Int {
        logLock.lock()
        defer { logLock.unlock() }
        return readCount
    }

    /// What a write statement's SQL depends on.
    enum StatementKey: Hashable {
        case insert(ObjectIdentifier)
        case insertChunk(ObjectIdentifier, appending: Bool)
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
        let change: StoreChange = try withConnection { writer in
            let change: StoreChange
            if isInMigration {
                change = try writer.inSavepoint("persistkit_save") {
                    try writingExternalData {
                        let change = try body(writer)
                        try applyDeleteActions(change, writer)
                        return change
                    }
                }
            } else {
                change = try writer.inImmediateTransaction {
                    try writingExternalData {
                        let change = try body(writer)
                        if recordsStaleModel { try StoreMetadata.recordModel(model, writer) }
                        return change
                    }
                }
                recordsStaleModel = false
                if externalData != nil { releaseExternalData(writer) }
            }
            if let id = change.historyID { historyCursor.noteOwnRecord(id) }
            return change
        }
        logLock.lock()
        let logged = log(change, origin: origin)
        let observers = commitObservers
        logLock.unlock()
        for observer in observers { observer(logged) }
        return logged.sequence
    }

    /// Adds a change to the log under the next sequence number. Call with `logLock` held.
    private func log(_ change: StoreChange, origin: Int) -> StoreChange {
        let logged = StoreChange(sequence: nextSequence, origin: origin, inserted: change.inserted,
                                 updated: change.updated, deleted: change.deleted, isExternal: change.isExternal,
                                 listChanges: change.listChanges)
        changeLog.append(logged)
        nextSequence += 1
        if changeLog.count > SQLiteStore.maximumLoggedChanges {
            changeLog.removeFirst(changeLog.count - SQLiteStore.maximumLoggedChanges)
        }
        return logged
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
    /// for commits by other processes, which are read from the persistent history. `complete`
    /// is false when the log no longer reaches back that far, or another process's change is
    /// unknown (see ``externalChanges(_:)``): the reader must then refresh everything it holds.
    func changes(after sequence: Int, excluding origin: Int) -> (changes: [StoreChange], complete: Bool, latest: Int) {
        let external = probeExternalChanges()
        logLock.lock()
        defer { logLock.unlock() }
        for change in external { _ = log(change, origin: 0) }
        let latest = nextSequence - 1
        guard sequence < latest else { return ([], true, latest) }
        let oldest = changeLog.first?.sequence ?? nextSequence
        let complete = sequence + 1 >= oldest
        let newer = changeLog.filter { $0.sequence > sequence && $0.origin != origin }
        return (newer, complete && !newer.contains(where: \.isExternal), latest)
    }

    /// Other processes' commits since the last probe, read from the persistent history on the
    /// writer (whose `PRAGMA data_version` moves when another connection commits; its own
    /// commits leave it alone). Empty while a save holds the writer (the next probe sees
    /// them), and for an in-memory store or a migration, which no other process can reach.
    private func probeExternalChanges() -> [StoreChange] {
        guard readers != nil, writerLock.try() else { return [] }
        defer { writerLock.unlock() }
        return externalChanges(writer)
    }

    /// Counts one read for ``readsRun``.
    private func countRead() {
        logLock.lock()
        readCount &+= 1
        logLock.unlock()
    }
}
