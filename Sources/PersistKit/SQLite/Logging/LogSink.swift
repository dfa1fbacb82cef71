import Foundation
import Logging

/// Where a container's or a context's log messages go, resolved once when the logger is given:
/// the `Logger` (its level read then), and standard error under `PERSISTKIT_SQL_DEBUG`.
///
/// Code that logs holds an optional sink and tests one flag of it, so that with no logger, or
/// one whose level is above what is logged, nothing else runs: no clock is read, no message
/// is built, and no SQLite hook is installed.
final class LogSink: Sendable {
    /// The loggers the messages go to (each still filters by its own level).
    let loggers: [Logger]
    /// Every statement, with its time and bound values' count (`.trace`).
    let tracesStatements: Bool
    /// Saves, fetches, migrations and merges (`.debug`).
    let logsDebug: Bool
    /// Conflicts, lock waits and retries (`.warning`).
    let logsWarnings: Bool
    /// A statement at least this slow is logged at `.notice` with its query plan (nil: off).
    let slowStatementNanoseconds: UInt64?
    /// Each statement's query plan, once per statement text and connection (`PERSISTKIT_SQL_DEBUG=2`).
    let explainsStatements: Bool
    /// Statements logged with their bound values (`PERSISTKIT_SQL_DEBUG=3`, or asked for).
    let logsValues: Bool

    /// Whether the connections need SQLite's statement hooks (they cost nothing when absent).
    var watchesStatements: Bool { tracesStatements || slowStatementNanoseconds != nil }

    private init(loggers: [Logger], debugLevel: Int, slowStatementThreshold: Duration?, logsValues: Bool) {
        self.loggers = loggers
        let levels = loggers.map(\.logLevel)
        func logs(_ level: Logger.Level) -> Bool { levels.contains { $0 <= level } }
        tracesStatements = logs(.trace)
        logsDebug = logs(.debug)
        logsWarnings = logs(.warning)
        slowStatementNanoseconds = logs(.notice) ? slowStatementThreshold.map(Self.nanoseconds) : nil
        explainsStatements = debugLevel >= 2
        self.logsValues = logsValues || debugLevel >= 3
    }

    /// The sink for `logger` with a container's settings, plus standard error under
    /// `PERSISTKIT_SQL_DEBUG`; nil when nothing would ever be logged.
    static func make(logger: Logger?, settings: LogSettings) -> LogSink? {
        // (`logger` rather than `settings.logger`: a context's own may differ from the container's.)
        var loggers = logger.map { [$0] } ?? []
        let debugLevel = SQLDebugLogHandler.environmentLevel
        if debugLevel > 0 { loggers.append(SQLDebugLogHandler.logger) }
        let sink = LogSink(loggers: loggers, debugLevel: debugLevel, slowStatementThreshold: settings.slowStatementThreshold,
                           logsValues: settings.logsValues)
        return sink.logsWarnings ? sink : nil
    }

    /// Logs `message` at `level` to every logger that takes it.
    func log(_ level: Logger.Level, _ message: @autoclosure () -> String,
             metadata: @autoclosure () -> Logger.Metadata? = nil) {
        for logger in loggers {
            logger.log(level: level, "\(message())", metadata: metadata(), source: "PersistKit")
        }
    }

    /// Monotonic nanoseconds, for the times logged.
    static func now() -> UInt64 { BusyWait.now() }

    /// Milliseconds since `start` (a ``now()``), as logged: three decimals.
    static func milliseconds(since start: UInt64) -> String {
        milliseconds(now() &- start)
    }

    static func milliseconds(_ nanoseconds: UInt64) -> String {
        String(format: "%.3f", Double(nanoseconds) / 1e6)
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
