import Foundation

/// The one way TaskModel writes and reads instants: ISO 8601 in UTC with milliseconds,
/// `2026-11-25T09:30:00.000Z`.
///
/// Dates a ``TaskStore`` saves are rounded to the millisecond first (``normalized(_:)``), and
/// both directions compute the instant as a whole number of milliseconds divided by 1000, so a
/// date written and read back is the identical `Date`: an export round trip loses nothing.
public enum TaskDateCoding {
    /// `date` rounded to the nearest millisecond.
    public static func normalized(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds(of: date)) / 1000)
    }

    /// The ISO 8601 text of `date` in UTC, with milliseconds.
    ///
    /// ```swift
    /// TaskDateCoding.string(from: Date(timeIntervalSince1970: 0))   // "1970-01-01T00:00:00.000Z"
    /// ```
    public static func string(from date: Date) -> String {
        let total = milliseconds(of: date)
        let millisecond = Int(((total % 1000) + 1000) % 1000)
        let seconds = (total - Int64(millisecond)) / 1000
        let secondOfDay = Int(((seconds % 86_400) + 86_400) % 86_400)
        let days = (seconds - Int64(secondOfDay)) / 86_400
        let (year, month, day) = civilDate(fromDays: days)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2) + "." + pad(millisecond, 3) + "Z"
    }

    /// Reads ISO 8601 text: `YYYY-MM-DDTHH:MM:SS`, optional fraction (to the millisecond),
    /// then `Z` or an offset `±HH:MM`. Nil for anything else, or an impossible date.
    public static func date(from text: String) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
              let month = scanner.number(digits: 2), scanner.skip("-"),
              let day = scanner.number(digits: 2), scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
              let hour = scanner.number(digits: 2), scanner.skip(":"),
              let minute = scanner.number(digits: 2), scanner.skip(":"),
              let second = scanner.number(digits: 2) else { return nil }
        var millisecond: Int64 = 0
        if scanner.skip(".") {
            var digits = 0
            while let digit = scanner.digit() {
                // Milliseconds are kept; further digits must be zero, else the date would change.
                if digits < 3 {
                    millisecond = millisecond * 10 + digit
                } else if digit != 0 {
                    return nil
                }
                digits += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { millisecond *= 10 }
        }
        var offsetSeconds: Int64 = 0
        if scanner.skip("Z") || scanner.skip("z") {
            offsetSeconds = 0
        } else if let sign = scanner.sign(), let offsetHours = scanner.number(digits: 2), scanner.skip(":"),
                  let offsetMinutes = scanner.number(digits: 2), offsetHours < 24, offsetMinutes < 60 {
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard scanner.isAtEnd, (1...12).contains(month), day >= 1, day <= daysInMonth(year, Int(month)),
              hour < 24, minute < 60, second < 60 else { return nil }
        let days = days(fromCivilYear: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds * 1000 + millisecond) / 1000)
    }

    /// Decimal digits of `value`, zero-padded on the left to `width`.
    private static func pad(_ value: some BinaryInteger, _ width: Int) -> String {
        let digits = String(value.magnitude)
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func milliseconds(of date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        // Dates beyond ±292 million years cannot be counted in milliseconds; clamp them.
        guard value.isFinite else { return 0 }
        return Int64(max(-9.2e18, min(9.2e18, value)))
    }

    static func daysInMonth(_ year: Int64, _ month: Int) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days-from-civil and civil-from-days: exact for the proleptic Gregorian
    // calendar, with no time zone or locale involved.
    static func days(fromCivilYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilDate(fromDays days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), Int(month), Int(day))
    }

    /// A cursor over ASCII bytes, for the fixed-width fields of ISO 8601.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { position == bytes.count }

        mutating func skip(_ character: Character) -> Bool {
            guard let ascii = character.asciiValue, position < bytes.count, bytes[position] == ascii else { return false }
            position += 1
            return true
        }

        mutating func digit() -> Int64? {
            guard position < bytes.count, bytes[position] >= 48, bytes[position] <= 57 else { return nil }
            position += 1
            return Int64(bytes[position - 1] - 48)
        }

        mutating func number(digits: Int) -> Int64? {
            var value: Int64 = 0
            for _ in 0..<digits {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        mutating func sign() -> Int64? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }
}
