import CSQLite
import Foundation

/// One SQLite database connection: open, validated, configured, with a prepared-statement cache.
///
/// A connection is not `Sendable`: the store that owns it hands it to one thread at a time
/// (the writer behind the store's writer lock, each reader through the reader pool).
final class SQLiteConnection {
    /// How a connection syncs to disk and waits for locks.
    struct Configuration: Sendable {
        /// `PRAGMA synchronous`: `FULL` (the default) survives power loss; `NORMAL` is faster in WAL.
        var synchronous: SynchronousMode = .full
        /// How long to wait for another connection's lock before failing with "database is locked".
        var busyTimeout: TimeInterval = 5
        /// Open the file read-only.
        var readOnly = false
        /// Open the file read-only as a file nobody changes (SQLite's `immutable=1`): no locks,
        /// no -wal or -shm file, so it works where those cannot be created. Implies `readOnly`.
        var immutable = false
        /// Where the connection logs its statements (nil: nowhere, and no SQLite hook installed).
        var logSink: LogSink?
    }

    let handle: OpaquePointer
    let path: String
    /// How long SQLite waits for another connection's lock (also bounds `switchToWAL`'s retries).
    let busyTimeout: TimeInterval
    private(set) var statements = StatementCache()
    private(set) var isInTransaction = false
    /// The busy handler's state; SQLite holds an unretained pointer to it.
    private let busyWait: BusyWait
    /// Where the connection's lock waits and retries are logged (nil: nowhere).
    let logSink: LogSink?
    /// Logs every statement, or the slow ones; SQLite holds an unretained pointer to it.
    private let tracer: StatementTracer?
    /// Set when `init` closed the handle on its way out.
    private var isClosed = false

    /// Opens (and creates, unless read-only) the database at `path`, or an in-memory database
    /// for `":memory:"`, and checks at once that the file really is a database.
    init(path: String, configuration: Configuration) throws {
        var db: OpaquePointer?
        let walExisted = FileManager.default.fileExists(atPath: path + "-wal")
        var flags = (configuration.readOnly || configuration.immutable ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        var name = path
        if configuration.immutable {
            flags |= SQLITE_OPEN_URI
            name = SQLiteConnection.uri(path: path, query: "immutable=1")
        }
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let opened = db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteConnection.openError(path: path, code: rc, message: message)
        }
        handle = opened
        self.path = path
        // Everything that shapes how statements behave comes before the first statement.
        sqlite3_extended_result_codes(handle, 1)
        // Until the store has checked the file, closing must not checkpoint a WAL left by
        // another process: a store we refuse stays byte-identical.
        persistkit_set_no_checkpoint_on_close(handle, 1)
        persistkit_set_double_quoted_strings(handle, 0)
        // A store file may come from elsewhere (a backup, an attachment): SQL cannot damage it
        // on purpose, and its schema cannot call functions that are not innocuous.
        persistkit_set_defensive(handle)
        busyTimeout = max(0, configuration.busyTimeout)
        busyWait = BusyWait(timeout: busyTimeout)
        busyWait.install(on: handle)
        logSink = configuration.logSink
        tracer = StatementTracer.install(on: handle, sink: configuration.logSink, path: path)
        do {
            // Reading the schema fails with SQLITE_NOTADB on a garbage file: find out now, not later.
            try execute("SELECT count(*) FROM sqlite_master")
            // Damaged b-tree cells are found as they are read (an error, never a wild read).
            try execute("PRAGMA cell_size_check=ON")
            TextFunctions.register(on: handle)
        } catch var error as PersistError {
            if !walExisted { persistkit_set_no_checkpoint_on_close(handle, 0) }
            tracer?.uninstall(from: handle)
            sqlite3_close_v2(handle)
            isClosed = true   // deinit runs all the same (self is initialized): it must not close again
            if error.code == .notADatabase { error.message = "\(path) is not a database: " + error.message }
            error.store = error.store ?? path
            throw error
        }
    }

    deinit {
        statements.removeAll()
        guard !isClosed else { return }
        tracer?.uninstall(from: handle)
        sqlite3_close_v2(handle)
    }

    /// A `file:` URI for `path` with `query`: the characters a URI gives meaning to escaped.
    static func uri(path: String, query: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        // An absolute path needs the empty authority: `file:///a/b`; a relative one none.
        return "file:" + (escaped.hasPrefix("/") ? "//" : "") + escaped + "?" + query
    }

    private static func openError(path: String, code: Int32, message: String) -> PersistError {
        let primary = code & 0xFF
        if primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT {
            return PersistError(.notADatabase, "\(path) is not a database: \(message)", sqliteCode: SQLiteResultCode(code))
        }
        return PersistError(.cannotOpenStore, "Cannot open \(path): \(message)", sqliteCode: SQLiteResultCode(code))
    }

    /// Lets closing checkpoint and remove the WAL again (see `init`).
    func allowCheckpointOnClose() {
        persistkit_set_no_checkpoint_on_close(handle, 0)
    }

    /// Applies journal mode and synchronous settings; done after the store checked the file,
    /// because switching to WAL writes to the file.
    func configureForWriting(_ configuration: Configuration) throws {
        allowCheckpointOnClose()
        if path != ":memory:" && !path.isEmpty {
            try switchToWAL()
        }
        try execute("PRAGMA synchronous=\(configuration.synchronous.rawValue)")
    }

    /// `PRAGMA journal_mode=WAL`, retried while another connection holds a lock.
    ///
    /// Switching a rollback-journal file to WAL upgrades a read lock to a write lock, and
    /// SQLite fails such an upgrade at once rather than call the busy handler (waiting could
    /// deadlock): processes opening a new store together would see "database is locked".
    private func switchToWAL() throws {
        let deadline = Date().addingTimeInterval(busyTimeout)
        var mode: String?
        while true {
            do {
                mode = try singleText("PRAGMA journal_mode=WAL")
                break
            } catch let error as PersistError where error.sqliteCode?.primary == SQLiteResultCode.busy && Date() < deadline {
                usleep(UInt32.random(in: 1_000...5_000))
            }
        }
        if mode?.lowercased() != "wal" {
            throw PersistError(.cannotOpenStore, "Cannot switch \(path) to WAL journal mode (got \(mode ?? "nothing"))")
        }
    }

    /// Runs one or more statements that return no rows we need.
    func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errorMessage)
            throw SQLiteConnection.error(code: rc, message: message, sql: sql)
        }
    }

    /// The first column of the first row as text.
    func singleText(_ sql: String, _ values: [SQLValue] = []) throws -> String? {
        let statement = values.isEmpty ? try prepare(sql) : try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        guard try statement.step() else { return nil }
        return statement.isNull(at: 0) ? nil : statement.string(at: 0)
    }

    /// The first column of the first row as an integer (nil for none or NULL).
    @discardableResult
    func singleInt(_ sql: String, _ values: [SQLValue] = []) throws -> Int64? {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        guard try statement.step() else { return nil }
        return statement.isNull(at: 0) ? nil : statement.int64(at: 0)
    }

    /// A new prepared statement, not cached.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, 0, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw SQLiteConnection.error(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
        return SQLiteStatement(handle: stmt, connection: self, sql: sql)
    }

    /// The cached prepared statement for `sql`, reset and with bindings cleared (see
    /// ``StatementCache`` for what is kept, and for how long).
    func cachedStatement(_ sql: String) throws -> SQLiteStatement {
        if let statement = statements.statement(for: sql) {
            statement.reset()
            return statement
        }
        guard StatementCache.keeps(sql) else { return try prepare(sql) }
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw SQLiteConnection.error(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
        let statement = SQLiteStatement(handle: stmt, connection: self, sql: sql)
        statements.insert(statement)
        return statement
    }

    /// Drops every cached statement (after a schema change).
    func clearStatementCache() {
        statements.removeAll()
    }

    /// Runs `body` in a transaction that takes the write lock up front (`BEGIN IMMEDIATE`),
    /// committing if it returns and rolling back if it throws.
    ///
    /// Another process holding the write lock is waited for, up to ``busyTimeout``; after that
    /// the error says how long it waited (`.cannotOpenStore` with `SQLITE_BUSY`).
    func inImmediateTransaction<T>(_ body: () throws -> T) throws -> T {
        try beginImmediate()
        isInTransaction = true
        defer { isInTransaction = false }
        let result: T
        do {
            result = try body()
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        do {
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        return result
    }

    /// Runs `body` inside a savepoint of the open transaction: if it throws, what it wrote is
    /// undone and the transaction goes on (a migration's context saves one part at a time).
    func inSavepoint<T>(_ name: String, _ body: () throws -> T) throws -> T {
        let quoted = SQLName.quote(name)
        try execute("SAVEPOINT \(quoted)")
        let result: T
        do {
            result = try body()
        } catch {
            try? execute("ROLLBACK TO \(quoted)")
            try? execute("RELEASE \(quoted)")
            throw error
        }
        try execute("RELEASE \(quoted)")
        return result
    }

    /// `BEGIN IMMEDIATE`, tried again while another connection holds the write lock (the busy
    /// handler waits inside each try; SQLite skips it where waiting could deadlock), until
    /// ``busyTimeout`` has passed since the first try.
    private func beginImmediate() throws {
        let started = BusyWait.now()
        let waits = busyWait.waitCount
        var tries = 1
        while true {
            do {
                try execute("BEGIN IMMEDIATE")
                if tries > 1 || busyWait.waitCount != waits { logLockWait(tries: tries, since: started) }
                return
            } catch let error as PersistError where error.sqliteCode?.primary == SQLITE_BUSY {
                tries += 1
                let waited = Double(BusyWait.now() - started) / 1e9
                guard waited < busyTimeout else {
                    throw PersistError(.cannotOpenStore,
                        "The store \(path) stayed locked by another connection or process for \(String(format: "%.1f", waited)) s "
                        + "(its busy timeout is \(String(format: "%.1f", busyTimeout)) s): nothing was written",
                        sql: "BEGIN IMMEDIATE", sqliteCode: error.sqliteCode, store: path)
                }
                usleep(UInt32.random(in: 200...2_000))
            }
        }
    }

    /// Logs that taking the write lock took `tries` tries (another connection held it).
    private func logLockWait(tries: Int, since started: UInt64) {
        guard let logSink, logSink.logsWarnings else { return }
        logSink.log(.warning, "waited \(String(format: "%.1f", Double(BusyWait.now() - started) / 1e6)) ms for the write lock of \(path), "
                    + "held by another connection or process (BEGIN IMMEDIATE tried \(tries) times)", metadata: ["store": "\(path)"])
    }

    /// Runs `body` in one read transaction (`BEGIN DEFERRED` ... `COMMIT`), so that every
    /// statement in it reads the same committed snapshot.
    func inReadTransaction<T>(_ body: () throws -> T) throws -> T {
        guard !isInTransaction else { return try body() }
        try execute("BEGIN DEFERRED")
        isInTransaction = true
        defer {
            isInTransaction = false
            try? execute("COMMIT")
        }
        return try body()
    }

    /// Whether a transaction is open (SQLite's own view: autocommit off).
    var hasOpenTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Rows changed by every INSERT, UPDATE and DELETE since the connection opened.
    var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }

    /// The rowid of the last INSERT.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Builds the error for a failed SQLite call, with its extended code, message and SQL.
    static func error(code: Int32, message: String, sql: String?) -> PersistError {
        let primary = code & 0xFF
        if primary == SQLITE_ERROR, let carried = SQLiteFunctionError.carried(in: message, sql: sql) { return carried }
        switch primary {
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            return PersistError(.notADatabase, "Not a database, or a damaged one: \(message)", sql: sql, sqliteCode: SQLiteResultCode(code))
        case SQLITE_CONSTRAINT:
            return PersistError(.constraintViolation, "Constraint failed: \(message)", sql: sql, sqliteCode: SQLiteResultCode(code))
        case SQLITE_BUSY, SQLITE_LOCKED:
            return PersistError(.cannotOpenStore, "The database is locked by another connection: \(message)", sql: sql, sqliteCode: SQLiteResultCode(code))
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM:
            return PersistError(.cannotOpenStore, "Cannot write the database: \(message)", sql: sql, sqliteCode: SQLiteResultCode(code))
        default:
            return PersistError(.sqlite, "SQLite error: \(message)", sql: sql, sqliteCode: SQLiteResultCode(code))
        }
    }
}
