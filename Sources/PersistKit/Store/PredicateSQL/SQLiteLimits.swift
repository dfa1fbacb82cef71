import CSQLite

/// Limits of the linked SQLite library that shape the SQL predicates compile to, read once.
struct SQLiteLimits: Sendable {
    /// The most parameters a statement may have (`SQLITE_MAX_VARIABLE_NUMBER`: 32,766 by
    /// default, 999 before SQLite 3.32, more in some builds).
    let variables: Int
    /// The most arguments a function call may have (`SQLITE_MAX_FUNCTION_ARG`, 127 by default).
    let functionArguments: Int

    static let current: SQLiteLimits = {
        var db: OpaquePointer?
        defer { if let db { sqlite3_close_v2(db) } }
        guard sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, nil) == SQLITE_OK,
              let db else {
            return SQLiteLimits(variables: 999, functionArguments: 127)
        }
        return SQLiteLimits(variables: Int(sqlite3_limit(db, SQLITE_LIMIT_VARIABLE_NUMBER, -1)),
                            functionArguments: Int(sqlite3_limit(db, SQLITE_LIMIT_FUNCTION_ARG, -1)))
    }()
}
