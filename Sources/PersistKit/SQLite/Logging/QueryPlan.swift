import CSQLite
import Foundation

/// SQLite's `EXPLAIN QUERY PLAN` of a statement, and what it says about tables read whole.
///
/// ```
/// SCAN Task
/// USE TEMP B-TREE FOR ORDER BY
/// ```
struct QueryPlan: Sendable, Equatable {
    /// One step of the plan: SQLite's detail text and how deep it sits in the plan's tree.
    struct Step: Sendable, Equatable {
        let depth: Int
        let detail: String
    }

    let steps: [Step]

    /// The plan's lines, each indented two spaces per level.
    var lines: [String] { steps.map { String(repeating: "  ", count: $0.depth) + $0.detail } }

    /// The tables the plan reads row by row from start to end (`SCAN Task`), not through an index.
    var scannedTables: [String] {
        steps.compactMap { step in
            var detail = Substring(step.detail)
            guard detail.hasPrefix("SCAN ") else { return nil }
            detail = detail.dropFirst(5)
            if detail.hasPrefix("TABLE ") { detail = detail.dropFirst(6) }   // SQLite before 3.36
            let name = detail.prefix { $0 != " " }
            let rest = detail.dropFirst(name.count)
            // `SCAN T USING INDEX i` walks an index in order: still every row, but for the sort.
            return rest.contains("USING") ? nil : String(name)
        }
    }

    /// The plan of `sql` on the connection `db` (parameters unbound: the plan does not depend on
    /// their values). Throws the SQLite error of a statement that does not prepare.
    static func read(_ sql: String, db: OpaquePointer) throws -> QueryPlan {
        var rows: [(id: Int32, parent: Int32, detail: String)] = []
        try Self.query("EXPLAIN QUERY PLAN " + sql, db: db) { statement in
            rows.append((sqlite3_column_int(statement, 0), sqlite3_column_int(statement, 1),
                         sqlite3_column_text(statement, 3).map { String(cString: $0) } ?? ""))
        }
        var depthByID: [Int32: Int] = [0: -1]
        var steps: [Step] = []
        for row in rows {
            let depth = (depthByID[row.parent] ?? -1) + 1
            depthByID[row.id] = depth
            steps.append(Step(depth: depth, detail: row.detail))
        }
        return QueryPlan(steps: steps)
    }

    /// What the plan's scans mean for the statement's condition: for each table read whole while
    /// the `WHERE` clause tests its columns, whether an index could have been searched instead
    /// (one starts with a tested column, but the condition's form keeps SQLite from using it),
    /// or no index starts with any of them.
    func scanNotes(_ sql: String, db: OpaquePointer) -> [String] {
        guard let whereRange = sql.range(of: " WHERE ") else { return [] }
        var condition = sql[whereRange.upperBound...]
        for clause in [" ORDER BY ", " GROUP BY ", " LIMIT "] {
            if let end = condition.range(of: clause) { condition = condition[..<end.lowerBound] }
        }
        var notes: [String] = []
        for table in Set(scannedTables).sorted() {
            let tested = Self.columns(of: table, db: db).filter { condition.contains(SQLName.quote($0)) }
            guard !tested.isEmpty else { continue }
            let indexes = Self.leadingColumns(of: table, db: db)
            if let usable = indexes.first(where: { tested.contains($0.column) }) {
                notes.append("scans \(table) though its index \(usable.index) could search it by \(usable.column): "
                             + "the condition tests \(usable.column) in a form the index cannot serve")
            } else {
                notes.append("scans \(table), reading every row to test \(tested.joined(separator: ", ")): "
                             + "no index of \(table) starts with \(tested.count == 1 ? "it" : "any of them")")
            }
        }
        return notes
    }

    private static func columns(of table: String, db: OpaquePointer) -> [String] {
        var columns: [String] = []
        try? query("SELECT name FROM pragma_table_info(?1)", [table], db: db) { statement in
            if let name = sqlite3_column_text(statement, 0) { columns.append(String(cString: name)) }
        }
        return columns
    }

    /// Each index of `table` with its first column.
    private static func leadingColumns(of table: String, db: OpaquePointer) -> [(index: String, column: String)] {
        var result: [(index: String, column: String)] = []
        try? query("SELECT il.name, ii.name FROM pragma_index_list(?1) AS il, pragma_index_info(il.name) AS ii WHERE ii.seqno = 0",
                   [table], db: db) { statement in
            if let index = sqlite3_column_text(statement, 0), let column = sqlite3_column_text(statement, 1) {
                result.append((String(cString: index), String(cString: column)))
            }
        }
        return result
    }

    /// Runs `sql` with text parameters, calling `row` for each row. Used inside SQLite's
    /// statement hooks too, so it goes straight to the C API (no statement cache, no hooks of ours).
    private static func query(_ sql: String, _ texts: [String] = [], db: OpaquePointer, row: (OpaquePointer) -> Void) throws {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw SQLiteConnection.error(code: rc, message: String(cString: sqlite3_errmsg(db)), sql: sql)
        }
        defer { sqlite3_finalize(statement) }
        for (offset, text) in texts.enumerated() {
            sqlite3_bind_text(statement, Int32(offset + 1), text, -1, persistkit_sqlite_transient())
        }
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_ROW { row(statement); continue }
            if step == SQLITE_DONE { return }
            throw SQLiteConnection.error(code: step, message: String(cString: sqlite3_errmsg(db)), sql: sql)
        }
    }
}
