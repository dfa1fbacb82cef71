import Foundation
import TaskModel

/// Dates as people read them: the user's medium date style, with today/tomorrow/overdue marks.
struct DateText {
    let now: Date
    let calendar: Calendar
    private let dayFormatter: DateFormatter
    private let dayAndTimeFormatter: DateFormatter

    init(now: Date = Date(), calendar: Calendar = .current, locale: Locale = .current) {
        self.now = now
        self.calendar = calendar
        dayFormatter = DateFormatter()
        dayFormatter.locale = locale
        dayFormatter.calendar = calendar
        dayFormatter.timeZone = calendar.timeZone
        dayFormatter.dateStyle = .medium
        dayFormatter.timeStyle = .none
        dayAndTimeFormatter = DateFormatter()
        dayAndTimeFormatter.locale = locale
        dayAndTimeFormatter.calendar = calendar
        dayAndTimeFormatter.timeZone = calendar.timeZone
        dayAndTimeFormatter.dateStyle = .medium
        dayAndTimeFormatter.timeStyle = .short
    }

    /// `Nov 25, 2026` in the user's medium style.
    func day(_ date: Date) -> String { dayFormatter.string(from: date) }

    /// `Nov 25, 2026 at 9:15 AM` in the user's medium date and short time styles.
    func dayAndTime(_ date: Date) -> String { dayAndTimeFormatter.string(from: date) }

    /// A task's due date with its mark for open tasks, styled: `Nov 25, 2026 (tomorrow)`;
    /// empty for an undated task.
    func due(of task: TaskItem, style: Style) -> String {
        guard let due = task.due else { return "" }
        let text = day(due)
        switch task.dueStatus(now: now, calendar: calendar) {
        case .overdue?: return style.red(text + " (overdue)")
        case .today?: return style.yellow(text + " (today)")
        case .tomorrow?: return text + " " + style.yellow("(tomorrow)")
        case .later?, nil: return text
        }
    }

    /// The calendar day of `date`, `2026-11-25`, for JSON.
    func isoDay(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(parts.year, 4) + "-" + pad(parts.month, 2) + "-" + pad(parts.day, 2)
    }
}
