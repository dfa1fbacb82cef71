import Foundation

/// Where an open task's due date stands relative to today.
///
/// ```swift
/// switch task.dueStatus() {
/// case .overdue?: "overdue"
/// case .today?: "today"
/// case .tomorrow?: "tomorrow"
/// case .later?, nil: ""
/// }
/// ```
public enum DueStatus: String, Sendable, Hashable, CaseIterable {
    /// Due on a day before today.
    case overdue
    /// Due today.
    case today
    /// Due tomorrow.
    case tomorrow
    /// Due after tomorrow.
    case later

    /// The status of a due date on the day of `now`, by calendar days (not 24-hour spans).
    public init(due: Date, now: Date, calendar: Calendar) {
        self.init(day: CalendarDay(date: due, calendar: calendar), today: CalendarDay(date: now, calendar: calendar))
    }

    /// The status of a task due on `day`, seen on `today`.
    public init(day: CalendarDay, today: CalendarDay) {
        switch day.days(since: today) {
        case ..<0: self = .overdue
        case 0: self = .today
        case 1: self = .tomorrow
        default: self = .later
        }
    }
}
