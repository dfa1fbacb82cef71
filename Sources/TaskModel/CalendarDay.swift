import Foundation

/// A day of the (proleptic Gregorian) calendar, without a time or a time zone: `2026-12-01`
/// is the first of December wherever it is read.
///
/// A task due on a day (`--due 2026-12-01`, `tomorrow`) keeps a `CalendarDay`: it shows as the
/// same day in every time zone, unlike an instant such as local midnight, which moves to the day
/// before when the clock's zone moves west.
///
/// ```swift
/// let day = CalendarDay(isoText: "2026-12-01")       // December 1, 2026
/// day?.adding(days: 1).isoText                         // "2026-12-02"
/// CalendarDay(date: Date(), calendar: .current)        // today, where the user is
/// ```
///
/// A task stores the day as the instant of its midnight in UTC (``storedInstant``), so that
/// day dues sort among timed ones by the same `due` column; ``init(storedInstant:)`` reads it
/// back exactly.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before it).
    public let dayNumber: Int64

    /// The day `dayNumber` days after 1970-01-01.
    public init(dayNumber: Int64) {
        self.dayNumber = dayNumber
    }

    /// The day with this year, month (1–12) and day of the month; nil for a day that does not
    /// exist (2026-02-30).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, Int64(day) <= TaskDateCoding.daysInMonth(Int64(year), month),
              abs(year) < 1_000_000 else { return nil }
        dayNumber = TaskDateCoding.days(fromCivilYear: Int64(year), month: Int64(month), day: Int64(day))
    }

    /// `YYYY-MM-DD`, a day that exists; nil for other text.
    public init?(isoText text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day `date` falls on in `calendar`'s time zone.
    public init(date: Date, calendar: Calendar) {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        self = CalendarDay(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
            ?? CalendarDay(storedInstant: date)
    }

    /// The day of an instant in UTC: the inverse of ``storedInstant``.
    public init(storedInstant: Date) {
        let seconds = storedInstant.timeIntervalSince1970
        let days = (seconds / 86_400).rounded(.down)
        // Dates beyond what a day number can count are clamped, never trapped on.
        dayNumber = days.isFinite ? Int64(max(-1e15, min(1e15, days))) : 0
    }

    /// Midnight UTC at the start of the day: how a task stores a day due.
    public var storedInstant: Date {
        Date(timeIntervalSince1970: Double(dayNumber) * 86_400)
    }

    /// The year, month and day of the month.
    public var components: (year: Int, month: Int, day: Int) {
        let civil = TaskDateCoding.civilDate(fromDays: dayNumber)
        return (Int(civil.year), civil.month, civil.day)
    }

    /// `2026-12-01`.
    public var isoText: String {
        let (year, month, day) = components
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(abs(value))
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    /// ``isoText``.
    public var description: String { isoText }

    /// The day `count` days later (earlier for a negative count).
    public func adding(days count: Int) -> CalendarDay {
        CalendarDay(dayNumber: dayNumber + Int64(count))
    }

    /// How many days after `other` this day is (negative when before).
    public func days(since other: CalendarDay) -> Int {
        Int(dayNumber - other.dayNumber)
    }

    /// The start of this day in `calendar`'s time zone (local midnight), for date arithmetic.
    public func startOfDay(in calendar: Calendar) -> Date? {
        let (year, month, day) = components
        return calendar.date(from: DateComponents(year: year, month: month, day: day)).map { calendar.startOfDay(for: $0) }
    }

    /// Earlier days first.
    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        lhs.dayNumber < rhs.dayNumber
    }
}
