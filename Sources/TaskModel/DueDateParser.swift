import Foundation

/// Reads the due dates people type: days (`2026-11-25`, `today`, `tomorrow`, `+3d`, `+2w`,
/// weekday names such as `friday` or `fri`) and, for times, a day with a time of day
/// (`2026-11-25 14:30`, `tomorrow 9am`), a time alone (`18:00`, today), an offset from now
/// (`+30m`, `+2h`) or an ISO 8601 instant (`2026-11-25T14:30:00Z`).
///
/// ```swift
/// let parser = DueDateParser()
/// parser.day(from: "tomorrow")           // tomorrow, a CalendarDay
/// parser.due(from: "friday 9:30")        // .time(next Friday, 09:30 local time)
/// parser.dateTime(from: "+2h")           // two hours from now
/// parser.date(from: "next friday")       // nil: DueDateParser.examples says what works
/// ```
///
/// A weekday name means the next such day after today: on a Friday, `friday` is a week away.
public struct DueDateParser: Sendable {
    /// The accepted day forms, for error messages: `2026-11-25, today, tomorrow, +3d, friday`.
    public static let examples = "2026-11-25, today, tomorrow, +3d, friday"
    /// The accepted date-and-time forms, for error messages.
    public static let timeExamples = "'2026-11-25 14:30', 'tomorrow 9am', 'friday 18:00', 18:00, +2h"

    /// The calendar (and its time zone) days are counted in.
    public var calendar: Calendar
    /// The moment "today" is taken from.
    public var now: Date

    /// A parser for days relative to `now` in `calendar`.
    public init(calendar: Calendar = .current, now: Date = Date()) {
        self.calendar = calendar
        self.now = now
    }

    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// The start of the day `text` names, in the calendar's time zone; nil when it names none.
    public func date(from text: String) -> Date? {
        day(from: text).flatMap { $0.startOfDay(in: calendar) }
    }

    /// The calendar day `text` names (`2026-11-25`, `today`, `tomorrow`, `+3d`, `+2w`, `friday`);
    /// nil when it names none.
    public func day(from text: String) -> CalendarDay? {
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        let today = CalendarDay(date: now, calendar: calendar)
        switch word {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        default: break
        }
        if let day = CalendarDay(isoText: word) { return day }
        if let offset = relativeOffset(word, units: ["d": 1, "w": 7]) { return today.adding(days: offset) }
        if let target = DueDateParser.weekdays.firstIndex(where: { $0 == word || (word.count >= 3 && $0.hasPrefix(word)) }),
           let start = today.startOfDay(in: calendar) {
            // Calendar weekdays count from 1 (Sunday) in every Gregorian locale.
            let current = calendar.component(.weekday, from: start) - 1
            let ahead = (target - current + 7) % 7
            return today.adding(days: ahead == 0 ? 7 : ahead)
        }
        return nil
    }

    /// A due as typed: a day (``day(from:)``) when `text` names one, else a date and time
    /// (``dateTime(from:)``); nil for neither.
    public func due(from text: String) -> TaskDue? {
        if let day = day(from: text) { return .day(day) }
        return dateTime(from: text).map(TaskDue.time)
    }

    /// The instant `text` names: a day form and a time of day (`2026-11-25 14:30`,
    /// `2026-11-25T14:30`, `tomorrow at 9am`), a time alone (today), an offset from now (`+30m`,
    /// `+2h`, `+3d`, `+1w`) or an ISO 8601 instant with its zone; nil for anything else,
    /// a day without a time included.
    public func dateTime(from text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let instant = TaskDateCoding.date(from: trimmed) { return instant }
        let word = trimmed.lowercased()
        if let minutes = relativeOffset(word, units: ["m": 1, "h": 60, "d": 1440, "w": 10_080]) {
            return now.addingTimeInterval(Double(minutes) * 60)
        }
        if let time = TimeOfDay(word) { return time.date(on: CalendarDay(date: now, calendar: calendar), calendar: calendar) }
        // "2026-11-25T14:30", "2026-11-25 14:30", "tomorrow at 9am".
        var parts = word.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if parts.count == 1, let separator = word.firstIndex(of: "t"), CalendarDay(isoText: String(word[..<separator])) != nil {
            parts = [String(word[..<separator]), String(word[word.index(after: separator)...])]
        }
        if parts.count == 3, parts[1] == "at" { parts.remove(at: 1) }
        guard parts.count == 2, let day = day(from: parts[0]), let time = TimeOfDay(parts[1]) else { return nil }
        return time.date(on: day, calendar: calendar)
    }

    /// `+3d`-style offsets: digits after `+`, then one of `units`' letters; the count times the
    /// unit's value, up to 99,999 units.
    private func relativeOffset(_ text: String, units: [Character: Int]) -> Int? {
        guard text.hasPrefix("+"), let unit = text.last, let size = units[unit] else { return nil }
        let digits = text.dropFirst().dropLast()
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let count = Int(digits) else { return nil }
        return count * size
    }
}

/// A time of day as typed: `14:30`, `9:05:30`, `9am`, `9:30pm`, `12am` (midnight).
struct TimeOfDay {
    let hour: Int
    let minute: Int
    let second: Int

    init?(_ text: String) {
        var body = Substring(text)
        var meridiem: String?
        for suffix in ["am", "pm"] where body.hasSuffix(suffix) {
            meridiem = suffix
            body = body.dropLast(2)
        }
        let fields = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count), fields.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              fields.dropFirst().allSatisfy({ $0.count == 2 }) else { return nil }
        let numbers = fields.compactMap { Int($0) }
        guard numbers.count == fields.count else { return nil }
        var hour = numbers[0]
        minute = numbers.count > 1 ? numbers[1] : 0
        second = numbers.count > 2 ? numbers[2] : 0
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
        } else if fields.count == 1 {
            return nil   // a bare number is no time: "9" could mean anything
        }
        guard hour < 24, minute < 60, second < 60 else { return nil }
        self.hour = hour
    }

    /// This time on `day`, in `calendar`'s time zone (a time a clock change skips moves on).
    func date(on day: CalendarDay, calendar: Calendar) -> Date? {
        let (year, month, dayOfMonth) = day.components
        return calendar.date(from: DateComponents(year: year, month: month, day: dayOfMonth,
                                                  hour: hour, minute: minute, second: second))
            .map(TaskDateCoding.normalized)
    }
}
