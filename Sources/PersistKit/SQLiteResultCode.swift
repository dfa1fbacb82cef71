/// An SQLite result code: the extended code SQLite reported and its primary code.
///
/// ```swift
/// if error.sqliteCode?.primary == SQLiteResultCode.busy { retryLater() }
/// ```
public struct SQLiteResultCode: Sendable, Hashable, CustomStringConvertible {
    /// The extended result code (for example 2067, `SQLITE_CONSTRAINT_UNIQUE`).
    public let extended: Int32

    /// Wraps a result code as SQLite returned it (extended or primary).
    public init(_ extended: Int32) {
        self.extended = extended
    }

    /// The primary result code: the low eight bits of the extended one (19, `SQLITE_CONSTRAINT`).
    public var primary: Int32 { extended & 0xFF }

    /// SQLite's name for the primary code, `SQLITE_BUSY` for 5.
    public var primaryName: String {
        let names: [Int32: String] = [
            1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT", 5: "SQLITE_BUSY",
            6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT",
            10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL",
            14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL", 16: "SQLITE_EMPTY", 17: "SQLITE_SCHEMA",
            18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT", 20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE",
            22: "SQLITE_NOLFS", 23: "SQLITE_AUTH", 24: "SQLITE_FORMAT", 25: "SQLITE_RANGE", 26: "SQLITE_NOTADB",
        ]
        return names[primary] ?? "SQLITE_\(primary)"
    }

    /// `SQLITE_CONSTRAINT (19, extended 2067)`.
    public var description: String {
        extended == primary ? "\(primaryName) (\(primary))" : "\(primaryName) (\(primary), extended \(extended))"
    }

    /// `SQLITE_BUSY`: another connection holds a lock.
    public static let busy: Int32 = 5
    /// `SQLITE_LOCKED`: a lock within the same connection's shared cache.
    public static let locked: Int32 = 6
    /// `SQLITE_READONLY`: the database cannot be written.
    public static let readOnly: Int32 = 8
    /// `SQLITE_FULL`: the disk is full.
    public static let full: Int32 = 13
    /// `SQLITE_CONSTRAINT`: a constraint failed.
    public static let constraint: Int32 = 19
    /// `SQLITE_NOTADB`: the file is not a database.
    public static let notADatabase: Int32 = 26
}
