import CSQLite

/// A connection's prepared statements, by SQL, bounded by count and by bytes.
///
/// Most statements are few and reused (a fetch's, a save's); some are one-off and large (an
/// `IN` list of thousands of values, a lookup of many tuples). A statement whose SQL is longer
/// than ``longestCachedSQL`` is not kept at all; beyond ``maximumCount`` statements or
/// ``maximumBytes`` bytes (SQL text plus SQLite's memory for the statement), the least recently
/// used go. A statement still held by a caller stays valid when it leaves the cache: it is
/// finalized when the last reference goes.
struct StatementCache {
    /// The most statements kept.
    static let maximumCount = 256
    /// The most bytes kept: SQL text plus the memory SQLite reports for each statement.
    static let maximumBytes = 4 << 20
    /// SQL longer than this (in UTF-8 bytes) is prepared for one use and not kept.
    static let longestCachedSQL = 32 << 10

    private var statements: [String: SQLiteStatement] = [:]
    /// The bytes the kept statements account for.
    private(set) var bytes = 0
    /// Counts uses, to tell the least recently used statement.
    private var clock: UInt64 = 0

    var count: Int { statements.count }

    /// The kept statement for `sql`, marked as just used.
    @inline(__always)
    mutating func statement(for sql: String) -> SQLiteStatement? {
        guard let statement = statements[sql] else { return nil }
        clock &+= 1
        statement.lastUse = clock
        return statement
    }

    /// Whether a statement of `sql` is worth keeping.
    static func keeps(_ sql: String) -> Bool {
        sql.utf8.count <= longestCachedSQL
    }

    /// Keeps `statement`, then lets the least recently used go while over either bound.
    mutating func insert(_ statement: SQLiteStatement) {
        clock &+= 1
        statement.lastUse = clock
        statement.cachedBytes = statement.sql.utf8.count + Int(sqlite3_stmt_status(statement.handle, SQLITE_STMTSTATUS_MEMUSED, 0))
        if let replaced = statements.updateValue(statement, forKey: statement.sql) { bytes -= replaced.cachedBytes }
        bytes += statement.cachedBytes
        while statements.count > Self.maximumCount || (bytes > Self.maximumBytes && statements.count > 1) {
            guard let oldest = statements.values.min(by: { $0.lastUse < $1.lastUse }) else { break }
            statements[oldest.sql] = nil
            bytes -= oldest.cachedBytes
        }
    }

    mutating func removeAll() {
        statements.removeAll()
        bytes = 0
    }
}
