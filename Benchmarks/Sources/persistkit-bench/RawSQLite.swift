import CSQLiteBench
import Foundation

/// The raw SQLite C API: the physical limit every other variant is measured against.
/// One connection, statements prepared once and reused, typed binds and column reads.
final class RawDatabase {
    let handle: OpaquePointer

    /// Opens (creating if needed) `url` in WAL mode with `synchronous=FULL`, like every variant.
    init(url: URL, readOnly: Bool = false) throws {
        var db: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let rc = sqlite3_open_v2(url.path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            if let db { sqlite3_close_v2(db) }
            throw BenchError("cannot open \(url.path): \(rc)")
        }
        handle = db
        if !readOnly {
            try execute("PRAGMA journal_mode=WAL")
        }
        try execute("PRAGMA synchronous=FULL")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "code \(rc)"
            sqlite3_free(message)
            throw BenchError("\(sql): \(text)")
        }
    }

    func prepare(_ sql: String) throws -> RawStatement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        return RawStatement(statement, db: handle)
    }

    /// The plain schema of the raw and GRDB variants.
    static let createTable = """
        CREATE TABLE task (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            notes TEXT,
            due REAL,
            isComplete INTEGER NOT NULL DEFAULT 0)
        """

    static let insertSQL = "INSERT INTO task (name, notes, due, isComplete) VALUES (?, ?, ?, ?)"

    /// Creates the table and inserts `tasks` in one transaction (store setup, not timed).
    static func populate(url: URL, tasks: [TaskData]) throws {
        let db = try RawDatabase(url: url)
        try db.execute(createTable)
        try db.insert(tasks)
    }

    /// Inserts `tasks` in one transaction with one prepared statement.
    func insert(_ tasks: [TaskData]) throws {
        let statement = try prepare(Self.insertSQL)
        try execute("BEGIN IMMEDIATE")
        for task in tasks {
            statement.reset()
            statement.bind(task.name, at: 1)
            statement.bind(task.notes, at: 2)
            statement.bind(task.due, at: 3)
            statement.bind(task.isComplete, at: 4)
            try statement.stepDone()
        }
        try execute("COMMIT")
    }
}

/// A prepared statement with typed binds and column reads.
final class RawStatement {
    let handle: OpaquePointer
    let db: OpaquePointer

    init(_ handle: OpaquePointer, db: OpaquePointer) {
        self.handle = handle
        self.db = db
    }

    deinit {
        sqlite3_finalize(handle)
    }

    @inline(__always) func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    @inline(__always) func bind(_ value: String, at index: Int32) {
        sqlite3_bind_text(handle, index, value, -1, bench_sqlite_transient())
    }

    @inline(__always) func bind(_ value: String?, at index: Int32) {
        if let value { bind(value, at: index) } else { sqlite3_bind_null(handle, index) }
    }

    @inline(__always) func bind(_ value: Double?, at index: Int32) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    @inline(__always) func bind(_ value: Bool, at index: Int32) {
        sqlite3_bind_int64(handle, index, value ? 1 : 0)
    }

    @inline(__always) func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
    }

    /// Steps once; true while there is a row.
    @inline(__always) func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw BenchError("step: \(String(cString: sqlite3_errmsg(db)))")
    }

    @inline(__always) func stepDone() throws {
        let rc = sqlite3_step(handle)
        guard rc == SQLITE_DONE else { throw BenchError("step: \(String(cString: sqlite3_errmsg(db)))") }
    }

    @inline(__always) func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    @inline(__always) func double(_ column: Int32) -> Double? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_double(handle, column)
    }

    @inline(__always) func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    @inline(__always) func optionalText(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}

/// A materialized row of the plain schema (raw and GRDB's fast variant).
struct PlainTask {
    var id: Int64
    var name: String
    var notes: String?
    var due: Date?
    var isComplete: Bool
}

extension RawStatement {
    /// Reads the current row as `SELECT id, name, notes, due, isComplete`.
    @inline(__always) func plainTask() -> PlainTask {
        PlainTask(id: int64(0), name: text(1), notes: optionalText(2),
                  due: double(3).map { Date(timeIntervalSince1970: $0) }, isComplete: int64(4) != 0)
    }
}
