import CSQLite
import Foundation
import Logging

/// Logs a connection's statements through SQLite's own hooks (`sqlite3_trace_v2`): each
/// statement's start and end. Installed only when the sink traces statements or watches for
/// slow ones, so a connection without it pays nothing per statement.
///
/// A statement's time runs from its first step to its end (the last row read, or its reset):
/// for a fetch, the reading of its rows into objects is part of it.
///
/// Not `Sendable`: it belongs to its connection, whose thread runs the hooks.
final class StatementTracer {
    let sink: LogSink
    private let path: String
    /// When each running statement started (monotonic nanoseconds).
    private var started: [OpaquePointer: UInt64] = [:]
    /// Statement texts whose plan was logged already (``LogSink/explainsStatements``).
    private var explained: Set<String> = []
    /// Set while the tracer itself runs `EXPLAIN QUERY PLAN`: those statements are not logged.
    private var isExplaining = false

    private init(sink: LogSink, path: String) {
        self.sink = sink
        self.path = path
    }

    /// Installs a tracer on `handle` when `sink` needs one; the connection keeps it, and calls
    /// ``uninstall(from:)`` before closing.
    static func install(on handle: OpaquePointer, sink: LogSink?, path: String) -> StatementTracer? {
        guard let sink, sink.watchesStatements else { return nil }
        let tracer = StatementTracer(sink: sink, path: path)
        let mask = UInt32(SQLITE_TRACE_STMT | SQLITE_TRACE_PROFILE)
        sqlite3_trace_v2(handle, mask, { event, context, statement, _ in
            guard let context, let statement else { return 0 }
            let tracer = Unmanaged<StatementTracer>.fromOpaque(context).takeUnretainedValue()
            let pointer = OpaquePointer(statement)
            if event == UInt32(SQLITE_TRACE_STMT) {
                tracer.statementStarted(pointer)
            } else if event == UInt32(SQLITE_TRACE_PROFILE) {
                tracer.statementFinished(pointer)
            }
            return 0
        }, Unmanaged.passUnretained(tracer).toOpaque())
        return tracer
    }

    func uninstall(from handle: OpaquePointer) {
        sqlite3_trace_v2(handle, 0, nil, nil)
    }

    private func statementStarted(_ statement: OpaquePointer) {
        // Also called again for each trigger the statement fires: the first start counts.
        guard !isExplaining, started[statement] == nil else { return }
        started[statement] = LogSink.now()
    }

    private func statementFinished(_ statement: OpaquePointer) {
        guard !isExplaining, let start = started.removeValue(forKey: statement) else { return }
        let elapsed = LogSink.now() &- start
        let isSlow = sink.slowStatementNanoseconds.map { elapsed >= $0 } ?? false
        guard sink.tracesStatements || isSlow else { return }
        let sql = sqlite3_sql(statement).map { String(cString: $0) } ?? ""
        let bound = Int(sqlite3_bind_parameter_count(statement))
        let shown = sink.logsValues ? expandedSQL(statement) ?? sql : sql
        let milliseconds = LogSink.milliseconds(elapsed)
        let metadata: () -> Logger.Metadata = {
            ["duration_ms": "\(milliseconds)", "bound": "\(bound)", "store": "\(self.path)"]
        }
        if sink.tracesStatements {
            sink.log(.trace, "\(milliseconds) ms, \(bound) bound: \(shown)", metadata: metadata())
            if sink.explainsStatements, Self.hasPlan(sql), explained.insert(sql).inserted, let plan = plan(of: sql, statement) {
                sink.log(.trace, "query plan of \(sql): \(plan.lines.joined(separator: "; "))", metadata: ["store": "\(path)"])
            }
        }
        if isSlow, let threshold = sink.slowStatementNanoseconds {
            var message = "slow statement, \(milliseconds) ms (threshold \(LogSink.milliseconds(threshold)) ms): \(shown)"
            var details = metadata()
            if Self.hasPlan(sql), let plan = plan(of: sql, statement) {
                message += " | query plan: " + plan.lines.joined(separator: "; ")
                details["query_plan"] = "\(plan.lines.joined(separator: "; "))"
                let notes = withExplaining { plan.scanNotes(sql, db: sqlite3_db_handle(statement)) }
                if !notes.isEmpty { message += " | " + notes.joined(separator: "; ") }
            }
            sink.log(.notice, message, metadata: details)
        }
    }

    /// Whether `EXPLAIN QUERY PLAN` says anything about the statement (not BEGIN, PRAGMA...).
    private static func hasPlan(_ sql: String) -> Bool {
        let head = sql.drop { $0 == " " || $0 == "\n" || $0 == "(" }.prefix(7).uppercased()
        return ["SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "REPLACE"].contains { head.hasPrefix($0) }
    }

    private func plan(of sql: String, _ statement: OpaquePointer) -> QueryPlan? {
        withExplaining { try? QueryPlan.read(sql, db: sqlite3_db_handle(statement)) }
    }

    private func withExplaining<T>(_ body: () -> T) -> T {
        isExplaining = true
        defer { isExplaining = false }
        return body()
    }

    private func expandedSQL(_ statement: OpaquePointer) -> String? {
        guard let expanded = sqlite3_expanded_sql(statement) else { return nil }
        defer { sqlite3_free(expanded) }
        return String(cString: expanded)
    }
}
