import Foundation

/// The SQLite store behind a container: one connection, its schema, and a log of saves.
///
/// Every context of a container uses the store's one connection, one at a time behind `lock`:
/// SQLite connections are not thread-safe, and one connection means one consistent view.
final class SQLiteStore: @unchecked Sendable {
    // @unchecked Sendable: `connection`, `changeLog`, `nextSequence`, `historyCursor` and
    // `statementSQL` are only touched while holding `lock`; the other properties are lets.

    let model: ManagedObjectModel
    let identifier: String
    let description: StoreDescription
    /// Why the store can only be read (nil when it can be written).
    let readOnlyReason: String?
    /// Whether the store works inside a migration's open transaction (see
    /// ``init(migrating:model:store:)``): saves are savepoints, and run the delete actions
    /// SQLite would (foreign-key enforcement is off during a migration).
    let isInMigration: Bool
    private let lock = NSLock()
    private let connection: SQLiteConnection
    private var changeLog: [StoreChange] = []
    private var nextSequence = 1
    /// How far the persistent history has been read: other processes' commits.
    var historyCursor: StoreHistoryCursor
    /// How many times the connection was used for a read (`withConnection`): tests count the
    /// queries a fetch or a relationship read runs with it.
    private var readCount = 0
    /// SQL text of the write statements, built once per entity and column set (under `lock`).
    private var statementSQL: [StatementKey: String] = [:]
    private static let maximumLoggedChanges = 1_000
    static let metadataTable = "_persistkit_metadata"

    /// Opens (or creates) the store; a store of an older model version is migrated by
    /// `migrator` first (without one, it is refused).
    init(model: ManagedObjectModel, description: StoreDescription, migrator: StoreMigrating? = nil) throws {
        self.model = model
        self.description = description
        let opened = try StoreOpener.open(model: model, description: description, migrator: migrator)
        connection = opened.connection
        identifier = opened.identifier
        readOnlyReason = opened.readOnlyReason
        isInMigration = false
        historyCursor = SQLiteStore.startHistoryCursor(opened.connection)
    }

    /// A store over a migration's connection, inside its open transaction, with one of the
    /// migration's models (the old one before a stage's schema change, the new one after):
    /// the contexts of custom stages read and save through it, and everything they save
    /// commits or rolls back with the migration.
    init(migrating connection: SQLiteConnection, model: ManagedObjectModel, store: StoreIdentity) {
        self.model = model
        description = store.description
        self.connection = connection
        identifier = store.identifier
        readOnlyReason = nil
        isInMigration = true
        historyCursor = SQLiteStore.startHistoryCursor(connection)
    }

    /// Whether saves are refused: the store was opened read-only, or cannot be written.
    var isReadOnly: Bool { readOnlyReason != nil }

    // MARK: Access

    /// Runs `body` with the connection, holding the store's lock.
    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        readCount &+= 1
        do {
            return try body(connection)
        } catch var error as PersistError {
            error.store = error.store ?? displayPath
            throw error
        }
    }

    /// How many reads ran on the connection so far (see `readCount`).
    var readsRun: Int {
        lock.lock()
        defer { lock.unlock() }
        return readCount
    }

    /// What a write statement's SQL depends on.
    enum StatementKey: Hashable {
        case insert(ObjectIdentifier)
        case update(ObjectIdentifier, SlotSet, Bool)
    }

    /// The SQL for a write statement, built by `make` the first time. Call with `lock` held.
    func cachedSQL(_ key: StatementKey, _ make: () -> String) -> String {
        if let sql = statementSQL[key] { return sql }
        let sql = make()
        statementSQL[key] = sql
        return sql
    }

    /// The file path, or ":memory:".
    var displayPath: String { description.url?.path ?? ":memory:" }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction; if it commits, logs the change it
    /// returns for the other contexts.
    func save(origin: Int, _ body: (SQLiteConnection) throws -> StoreChange) throws -> Int {
        if let readOnlyReason {
            throw PersistError(.cannotOpenStore, "The store \(displayPath) is read-only (\(readOnlyReason)): nothing was saved",
                               store: displayPath)
        }
        lock.lock()
        defer { lock.unlock() }
        var change: StoreChange
        do {
            if isInMigration {
                change = try connection.inSavepoint("persistkit_save") {
                    let change = try body(connection)
                    try applyDeleteActions(change, connection)
                    return change
                }
            } else {
                change = try connection.inImmediateTransaction { try body(connection) }
            }
        } catch var error as PersistError {
            error.store = error.store ?? displayPath
            throw error
        }
        if let id = change.historyID { historyCursor.noteOwnRecord(id) }
        return log(change, origin: origin)
    }

    /// Adds a change to the log under the next sequence number. Call with `lock` held.
    private func log(_ change: StoreChange, origin: Int) -> Int {
        changeLog.append(StoreChange(sequence: nextSequence, origin: origin, inserted: change.inserted,
                                     updated: change.updated, deleted: change.deleted, isExternal: change.isExternal,
                                     listChanges: change.listChanges))
        nextSequence += 1
        if changeLog.count > SQLiteStore.maximumLoggedChanges {
            changeLog.removeFirst(changeLog.count - SQLiteStore.maximumLoggedChanges)
        }
        return nextSequence - 1
    }

    /// The latest sequence number: a new context starts there.
    var currentSequence: Int {
        lock.lock()
        defer { lock.unlock() }
        return nextSequence - 1
    }

    /// Changes logged after `sequence` by other contexts, after probing (`PRAGMA data_version`)
    /// for commits by other processes, which are read from the persistent history. `complete`
    /// is false when the log no longer reaches back that far, or another process's change is
    /// unknown (see ``externalChanges(_:)``): the reader must then refresh everything it holds.
    func changes(after sequence: Int, excluding origin: Int) -> (changes: [StoreChange], complete: Bool, latest: Int) {
        lock.lock()
        defer { lock.unlock() }
        for change in externalChanges(connection) { _ = log(change, origin: 0) }
        let latest = nextSequence - 1
        guard sequence < latest else { return ([], true, latest) }
        let oldest = changeLog.first?.sequence ?? nextSequence
        let complete = sequence + 1 >= oldest
        let newer = changeLog.filter { $0.sequence > sequence && $0.origin != origin }
        return (newer, complete && !newer.contains(where: \.isExternal), latest)
    }
}
