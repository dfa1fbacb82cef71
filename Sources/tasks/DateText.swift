import Foundation
import TaskModel

/// Dates as people read them: the user's medium date style, with today/tomorrow/overdue marks.
struct DateText {
    let now: Date
    let calendar: Calendar
    let terminal: TerminalLocale
    private let dayFormatter: DateFormatter
    private let dayAndTimeFormatter: DateFormatter

    init(now: Date = Clock.now(), calendar: Calendar = .current, terminal: TerminalLocale = .current) {
        self.now = now
        self.calendar = calendar
        self.terminal = terminal
        let locale = terminal.locale
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
    func day(_ date: Date) -> String { terminal.formatted(dayFormatter.string(from: date)) }

    /// `Nov 25, 2026 at 9:15 AM` in the user's medium date and short time styles (plain ASCII
    /// in an ASCII locale).
    func dayAndTime(_ date: Date) -> String { terminal.formatted(dayAndTimeFormatter.string(from: date)) }

    /// A formatter for `template` (`EEEMMMd`: `Tue, 10 Nov`) in the user's locale and zone.
    func formatter(template: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = terminal.locale
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.setLocalizedDateFormatFromTemplate(template)
        return formatter
    }

    /// `6:00 PM` in the user's short time style.
    func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = terminal.locale
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.dateStyle = .none
        formatter.timeStyle = .short
        return terminal.formatted(formatter.string(from: date))
    }

    /// A calendar day in the user's medium style, the same day in every time zone.
    func day(_ day: CalendarDay) -> String {
        day.startOfDay(in: calendar).map(self.day) ?? day.isoText
    }

    /// A task's due without its mark: the day, and the time of a due instant that is not the
    /// start of its day (tasks of version 1 hold local midnight: they show as the day alone).
    func plainDue(of task: TaskItem) -> String {
        guard let due = task.due else { return "" }
        if let dueDay = task.dueDay { return day(dueDay) }
        return calendar.startOfDay(for: due) == due ? day(due) : dayAndTime(due)
    }

    /// A task's due date with its mark for open tasks, styled: `Nov 25, 2026 (tomorrow)`;
    /// empty for an undated task.
    func due(of task: TaskItem, style: Style) -> String {
        guard task.due != nil else { return "" }
        let text = plainDue(of: task)
        switch task.dueStatus(now: now, calendar: calendar) {
        case .overdue?: return style.red(text + " (overdue)")
        case .today?: return style.yellow(text + " (today)")
        case .tomorrow?: return text + " " + style.yellow("(tomorrow)")
        case .later?, nil: return text
        }
    }

    /// The calendar day a task is due on, `2026-11-25`, for JSON: the due day, or the local
    /// day of a due instant.
    func isoDueDay(of task: TaskItem) -> String? {
        task.dueDay(calendar: calendar)?.isoText
    }

    /// Today, in the user's time zone.
    var today: CalendarDay { CalendarDay(date: now, calendar: calendar) }

    /// A day as messages name it: `today`, `tomorrow`, `yesterday`, else `Mon, 23 Nov` (with
    /// the year when it is not this year's).
    func dayName(_ day: CalendarDay) -> String {
        switch day.days(since: today) {
        case 0: return "today"
        case 1: return "tomorrow"
        case -1: return "yesterday"
        default: return weekdayAndDate(day, withYear: day.components.year != today.components.year)
        }
    }

    /// A day as a heading names it: `today, Sat, 21 Nov 2026`, or `Mon, 23 Nov 2026`.
    func dayHeading(_ day: CalendarDay) -> String {
        let name = dayName(day)
        let date = weekdayAndDate(day, withYear: true)
        return abs(day.days(since: today)) <= 1 ? name + ", " + date : date
    }

    /// `Sat, 21 Nov`, or `Sat, 21 Nov 2026` with the year, in the user's locale.
    func weekdayAndDate(_ day: CalendarDay, withYear: Bool) -> String {
        guard let start = day.startOfDay(in: calendar) else { return day.isoText }
        return terminal.formatted(formatter(template: withYear ? "EEEMMMdyyyy" : "EEEMMMd").string(from: start))
    }

    /// The calendar day of `date`, `2026-11-25`, in the user's time zone.
    func isoDay(_ date: Date) -> String {
        CalendarDay(date: date, calendar: calendar).isoText
    }
}
