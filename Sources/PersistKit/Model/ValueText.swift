import Foundation

/// Values as error messages show them: `"Buy milk"`, `1,000`, `2026-11-25T09:00:00Z`.
enum ValueText {
    /// A stored value shown as its attribute type reads: text quoted (and cut after 60
    /// characters), integers grouped by thousands, dates in ISO 8601, data by size.
    static func describe(_ value: SQLValue, as type: AttributeType) -> String {
        switch (type, value) {
        case (_, .null): return "nil"
        case (.boolean, .integer(let number)): return number == 0 ? "false" : "true"
        case (.date, .real(let seconds)): return date(seconds)
        case (.date, .integer(let seconds)): return date(Double(seconds))
        case (.float, .real(let number)): return String(Float(number))
        case (.uuid, .blob(let bytes)) where bytes.count == 16:
            return bytes.withUnsafeBytes { UUID(uuid: $0.load(as: uuid_t.self)).uuidString }
        case (_, .integer(let number)): return grouped(number)
        case (_, .real(let number)): return String(number)
        case (_, .text(let text)): return quoted(text)
        case (_, .blob(let data)): return "<\(grouped(data.count)) bytes>"
        }
    }

    /// A number with a comma between each group of three digits: `-1,234,567`.
    static func grouped<Number: BinaryInteger>(_ number: Number) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (number < 0 ? "-" : "") + result
    }

    /// `1 character`, `1,000 characters`.
    static func counted(_ count: Int, _ unit: String) -> String {
        grouped(count) + " " + unit + (count == 1 ? "" : "s")
    }

    /// Text in double quotes, cut after 60 characters.
    static func quoted(_ text: String) -> String {
        "\"" + (text.count > 60 ? String(text.prefix(57)) + "..." : text) + "\""
    }

    private static func date(_ secondsSinceReferenceDate: Double) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSinceReferenceDate: secondsSinceReferenceDate))
    }
}
