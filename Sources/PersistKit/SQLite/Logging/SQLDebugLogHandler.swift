import Foundation
import Logging

/// What `PERSISTKIT_SQL_DEBUG=1|2|3` prints to standard error, without any logging backend (as
/// Core Data's `-com.apple.CoreData.SQLDebug` launch argument does): 1, every statement with its
/// time, and every save, fetch, merge and migration; 2, each statement's query plan too; 3,
/// the bound values too.
///
/// One line per message: `persistkit trace: 0.041 ms, 2 bound: SELECT ...`.
struct SQLDebugLogHandler: LogHandler {
    /// `PERSISTKIT_SQL_DEBUG`, read once per process: 0 (unset or not 1 to 3) to 3.
    static let environmentLevel: Int = {
        guard let text = ProcessInfo.processInfo.environment["PERSISTKIT_SQL_DEBUG"], let level = Int(text) else { return 0 }
        return min(max(level, 0), 3)
    }()

    /// The logger writing to standard error, at `.trace`.
    static let logger: Logger = {
        var logger = Logger(label: "PersistKit.SQLDebug") { _ in SQLDebugLogHandler() }
        logger.logLevel = .trace
        return logger
    }()

    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        // One write per line: lines of several threads never mix.
        FileHandle.standardError.write(Data("persistkit \(event.level): \(event.message)\n".utf8))
    }
}
