import Foundation
import TaskModel

/// The time `tasks` takes as now: the system clock, or the instant `TASKS_NOW` names
/// (`2026-11-21T09:00:00Z`), so that scripts, tests and the README's examples can run a session
/// at a fixed moment and get the same output every time.
enum Clock {
    /// The environment variable that fixes the clock.
    static let variable = "TASKS_NOW"

    /// The instant `TASKS_NOW` names; nil when it is unset or empty.
    ///
    /// - Throws: a usage ``CommandError`` when it is set to something else than an ISO 8601
    ///   instant.
    static func fixed(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Date? {
        guard let text = environment[variable], !text.isEmpty else { return nil }
        guard let date = TaskDateCoding.date(from: text) else {
            throw CommandError.usage("\(variable) is '\(text)', not an ISO 8601 date and time (like 2026-11-21T09:00:00Z)")
        }
        return date
    }

    /// Read once: a process runs at one fixed moment, or on the system clock throughout.
    private static let fixedNow: Date? = try? fixed()

    /// Now: `TASKS_NOW` when it is set (``Tasks`` checks it before any command runs), else the
    /// system clock.
    static func now() -> Date {
        fixedNow ?? Date()
    }
}
