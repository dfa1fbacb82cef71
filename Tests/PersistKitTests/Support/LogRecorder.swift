import Foundation
import Logging
import Synchronization

/// A swift-log handler that keeps what it is given, for tests to read back.
final class LogRecorder: Sendable {
    struct Entry: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
    }

    private let entries = Mutex<[Entry]>([])

    /// A logger at `level` whose messages this recorder keeps.
    func logger(level: Logger.Level, label: String = "test") -> Logger {
        var logger = Logger(label: label) { _ in Handler(recorder: self) }
        logger.logLevel = level
        return logger
    }

    var all: [Entry] { entries.withLock { $0 } }

    func messages(at level: Logger.Level) -> [String] { all.filter { $0.level == level }.map(\.message) }

    func clear() { entries.withLock { $0.removeAll() } }

    fileprivate func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.append(Entry(level: event.level, message: "\(event.message)", metadata: event.metadata ?? [:]))
        }
    }
}
