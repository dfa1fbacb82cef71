import CSQLite
import Foundation

/// A prepared statement with typed binds and column reads.
///
/// Values go in and out through `sqlite3_bind_*` and `sqlite3_column_*` directly, never through
/// text or `Any`.
final class SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    unowned let connection: SQLiteConnection
    /// When the connection's ``StatementCache`` last handed it out.
    var lastUse: UInt64 = 0
    /// What it counts for in the connection's ``StatementCache``.
    var cachedBytes = 0

    init(handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and clears its bindings.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Resets the statement, keeping its bindings (for callers that bind every parameter anew).
    @inline(__always)
    func rewind() {
        sqlite3_reset(handle)
    }

    /// Steps once: true when a row is available, false when done.
    @inline(__always)
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let message = String(cString: sqlite3_errmsg(connection.handle))
        sqlite3_reset(handle)
        throw SQLiteConnection.error(code: rc, message: message, sql: sql)
    }

    /// Steps until done.
    func run() throws {
        while try step() {}
    }

    // MARK: Binding (1-based indexes, as in SQLite)

    func bind(_ values: [SQLValue]) throws {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    @inline(__always)
    func bind(_ value: SQLValue, at index: Int32) throws {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v): rc = sqlite3_bind_double(handle, index, v)
        case .text(let v): rc = bindText(v, at: index)
        case .blob(let v): rc = bindBlob(v, at: index)
        }
        if rc != SQLITE_OK {
            throw SQLiteConnection.error(code: rc, message: String(cString: sqlite3_errmsg(connection.handle)), sql: sql)
        }
    }

    @inline(__always)
    func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
    }

    private func bindText(_ text: String, at index: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { buffer in
            // A nil base address would bind NULL, not the empty string.
            guard let base = buffer.baseAddress else {
                return sqlite3_bind_text(handle, index, "", 0, persistkit_sqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                sqlite3_bind_text(handle, index, $0, Int32(buffer.count), persistkit_sqlite_transient())
            }
        }
    }

    private func bindBlob(_ data: Data, at index: Int32) -> Int32 {
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else {
                return sqlite3_bind_zeroblob(handle, index, 0)
            }
            return sqlite3_bind_blob(handle, index, base, Int32(buffer.count), persistkit_sqlite_transient())
        }
    }

    // MARK: Columns (0-based indexes, as in SQLite)

    /// How many columns each row has.
    var columnCount: Int32 { sqlite3_column_count(handle) }

    @inline(__always)
    func columnType(at index: Int32) -> Int32 { sqlite3_column_type(handle, index) }

    @inline(__always)
    func isNull(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    @inline(__always)
    func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    @inline(__always)
    func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

    @inline(__always)
    func string(at index: Int32) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    @inline(__always)
    func data(at index: Int32) -> Data {
        guard let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, index)))
    }

    /// The column as an `SQLValue`, in whatever storage class SQLite holds it.
    @inline(__always)
    func value(at index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(int64(at: index))
        case SQLITE_FLOAT: return .real(double(at: index))
        case SQLITE_TEXT: return .text(string(at: index))
        case SQLITE_BLOB: return .blob(data(at: index))
        default: return .null
        }
    }
}
