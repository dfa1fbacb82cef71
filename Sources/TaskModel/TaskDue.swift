import Foundation

/// When a task is due: a calendar day (`--due 2026-12-01`, `tomorrow`), the same day in every
/// time zone, or an instant (`--due "2026-12-01 15:00"`).
///
/// ```swift
/// try store.add(name: "Pay rent", TaskChanges(due: .day(CalendarDay(isoText: "2026-12-01")!)))
/// try store.add(name: "Dentist", TaskChanges(due: .time(appointment)))
/// ```
///
/// A ``TaskItem`` keeps both in its `due` date: a day as its midnight in UTC, with ``TaskItem/dueIsDay``
/// set. Tasks of TaskModel version 1 (whose days were local midnight) keep their instant.
public enum TaskDue: Sendable, Hashable {
    /// A calendar day, without a time.
    case day(CalendarDay)
    /// An instant: a day and a time.
    case time(Date)
}
