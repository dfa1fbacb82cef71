import Foundation
import PersistKit
import TaskModel

/// The reminder lines of `tasks watch`: `! #14 "Call mom" reminder (Nov 25, 2026 at 9:00 AM)`,
/// once per reminder.
///
/// A reminder shown is recorded in the store (``TaskStore/markReminderShown(_:at:)``), so that a
/// watch started later, or another one running, does not show it again; on a read-only store it
/// is remembered for this run only.
final class ReminderReporter {
    private let store: TaskStore
    private let dates: DateText
    private var shownHere = Set<String>()

    init(store: TaskStore, dates: DateText) {
        self.store = store
        self.dates = dates
    }

    /// The lines for reminders that have come due and were not shown yet.
    ///
    /// - Throws: ``PersistKit/PersistError`` when the store cannot be read.
    func lines(now: Date = Clock.now()) throws -> [String] {
        var lines: [String] = []
        for task in try store.dueReminders(now: now) {
            guard let remindAt = task.remindAt else { continue }
            let key = "\(task.reference) \(remindAt.timeIntervalSince1970)"
            guard !shownHere.contains(key), try record(task, now: now) else { continue }
            shownHere.insert(key)
            lines.append("! \(task.reference) \(TerminalText.quoted(task.name)) reminder (\(dates.dayAndTime(remindAt)))")
        }
        return lines
    }

    /// Records the reminder as shown; false when another process showed it first.
    private func record(_ task: TaskItem, now: Date) throws -> Bool {
        guard !store.container.isReadOnly else { return true }
        do {
            return try store.markReminderShown(task, at: now)
        } catch let error as PersistError where error.code == .cannotOpenStore || error.code == .conflict {
            // Busy or read-only after all: show it, and try to record it no more this run.
            return true
        }
    }
}
