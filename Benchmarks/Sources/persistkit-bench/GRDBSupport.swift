import Foundation
import GRDB

/// SQL shared by the raw and GRDB-fast variants (the GRDB-records variant builds the same
/// queries with GRDB's query interface).
enum PlainSQL {
    static let columns = "id, name, notes, due, isComplete"
    /// PersistKit's order: `isComplete`, then `due` with nils last, ties by primary key.
    static let order = "ORDER BY isComplete, due NULLS LAST, id"
    static let fetchAll = "SELECT \(columns) FROM task \(order)"
    static let fetchPredicate = "SELECT \(columns) FROM task WHERE name LIKE ? \(order)"
    static let substringPattern = "%abc%"
    static let count = "SELECT COUNT(*) FROM task WHERE isComplete = 0 AND due < ?"
    static let update = "UPDATE task SET due = ?, isComplete = ? WHERE id = ?"
    static let updateDue = "UPDATE task SET due = ? WHERE id = ?"
    static let iterate = "SELECT \(columns) FROM task"
}

/// Opens a GRDB queue on `url` with the settings every variant uses: WAL, `synchronous=FULL`.
func openGRDB(_ url: URL, readOnly: Bool = false) throws -> DatabaseQueue {
    var config = Configuration()
    config.readonly = readOnly
    // Not `config.journalMode = .wal`: GRDB then sets `synchronous=NORMAL` after
    // `prepareDatabase` runs, and every variant must use FULL.
    config.prepareDatabase { db in
        if !readOnly { try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try db.execute(sql: "PRAGMA synchronous = FULL")
    }
    return try DatabaseQueue(path: url.path, configuration: config)
}

/// GRDB's fastest way to materialize rows: `init(row:)` reading columns by index from a cached
/// statement (GRDB's own "optimized record" benchmark).
struct FastTask: FetchableRecord {
    var id: Int64
    var name: String
    var notes: String?
    var due: Date?
    var isComplete: Bool

    init(row: Row) {
        id = row[0]
        name = row[1]
        notes = row[2]
        due = (row[3] as Double?).map { Date(timeIntervalSince1970: $0) }
        isComplete = row[4]
    }
}

/// A GRDB `Codable` record: what most GRDB users write. Dates are stored as seconds since 1970,
/// like PersistKit's.
struct TaskRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "task"
    static var databaseDateDecodingStrategy: DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
    static var databaseDateEncodingStrategy: DatabaseDateEncodingStrategy { .timeIntervalSince1970 }

    var id: Int64?
    var name: String
    var notes: String?
    var due: Date?
    var isComplete: Bool

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let due = Column(CodingKeys.due)
        static let isComplete = Column(CodingKeys.isComplete)
    }

    /// The sorted request, as a GRDB user writes it.
    static var sorted: QueryInterfaceRequest<TaskRecord> {
        order(Columns.isComplete, Columns.due.ascNullsLast, Columns.id)
    }
}

extension TaskRecord {
    init(_ data: TaskData) {
        self.init(id: nil, name: data.name, notes: data.notes,
                  due: data.due.map { Date(timeIntervalSince1970: $0) }, isComplete: data.isComplete)
    }
}
