import Foundation

/// Reads the due dates people type: `2026-11-25`, `today`, `tomorrow`, `+3d`, `+2w`, and
/// weekday names (`friday`, `fri`), giving the start of that day in the calendar's time zone.
///
/// ```swift
/// let parser = DueDateParser()
/// parser.date(from: "tomorrow")     // tomorrow, 00:00 local time
/// parser.date(from: "next friday")  // nil: DueDateParser.examples says what works
/// ```
///
/// A weekday name means the next such day after today: on a Friday, `friday` is a week away.
public struct DueDateParser: Sendable {
    /// The accepted forms, for error messages: `2026-11-25, today, tomorrow, +3d, friday`.
    public static let examples = "2026-11-25, today, tomorrow, +3d, friday"

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

    /// The start of the day `text` names; nil when it names none.
    public func date(from text: String) -> Date? {
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        let today = calendar.startOfDay(for: now)
        switch word {
        case "today": return today
        case "tomorrow": return days(1, from: today)
        default: break
        }
        if let date = isoDate(word) { return date }
        if let offset = relativeOffset(word) { return days(offset, from: today) }
        if let target = DueDateParser.weekdays.firstIndex(where: { $0 == word || (word.count >= 3 && $0.hasPrefix(word)) }) {
            // Calendar weekdays count from 1 (Sunday) in every Gregorian locale.
            let current = calendar.component(.weekday, from: today) - 1
            let ahead = (target - current + 7) % 7
            return days(ahead == 0 ? 7 : ahead, from: today)
        }
        return nil
    }

    private func days(_ count: Int, from day: Date) -> Date? {
        calendar.date(byAdding: .day, value: count, to: day).map { calendar.startOfDay(for: $0) }
    }

    /// `YYYY-MM-DD`, a real day of the calendar.
    private func isoDate(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        var components = DateComponents()
        components.year = year
        components.month = month
        components.day = day
        guard let date = calendar.date(from: components) else { return nil }
        // Calendar rolls 2026-02-30 over into March: accept only days that exist.
        let check = calendar.dateComponents([.year, .month, .day], from: date)
        guard check.year == year, check.month == month, check.day == day else { return nil }
        return calendar.startOfDay(for: date)
    }

    /// `+3d` (days) or `+2w` (weeks), up to about 270 years ahead.
    private func relativeOffset(_ text: String) -> Int? {
        guard text.hasPrefix("+"), let unit = text.last, unit == "d" || unit == "w" else { return nil }
        let digits = text.dropFirst().dropLast()
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let count = Int(digits) else { return nil }
        return unit == "w" ? count * 7 : count
    }
}
