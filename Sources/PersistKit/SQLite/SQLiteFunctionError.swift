import CSQLite

/// A ``PersistError`` raised inside one of PersistKit's SQL functions (a `MATCHES` over its
/// bound, say), carried through SQLite's error message to the statement that called it, so
/// that the fetch throws the error itself and not SQLite's generic `SQLITE_ERROR`.
enum SQLiteFunctionError {
    /// Starts the message of a carried error; SQLite passes the bytes through unchanged.
    private static let marker = "\u{1}persistkit-error:"

    /// Ends the SQL function's call with `error`.
    static func report(_ error: PersistError, to context: OpaquePointer) {
        sqlite3_result_error(context, marker + error.code.rawValue + "\u{1}" + error.message, -1)
    }

    /// The error a function reported, from the message of the statement that failed; nil for
    /// any other message.
    static func carried(in message: String, sql: String?) -> PersistError? {
        guard message.hasPrefix(marker) else { return nil }
        let body = message.dropFirst(marker.count)
        guard let separator = body.firstIndex(of: "\u{1}"),
              let code = PersistError.Code(rawValue: String(body[..<separator])) else { return nil }
        return PersistError(code, String(body[body.index(after: separator)...]), sql: sql)
    }
}
