import Foundation

/// A value as SQLite stores it: one of its five storage classes.
///
/// Every attribute value is converted to an `SQLValue` once, when it is set; comparisons,
/// sorting and predicate evaluation in memory then work on `SQLValue`s with SQLite's own rules,
/// which is what makes in-memory and SQL evaluation agree.
///
/// A custom ``AttributeValue`` converts itself to and from one:
///
/// ```swift
/// struct HexColor: AttributeValue {
///     var rgb: UInt32
///     static var attributeType: AttributeType { .string }
///     init(rgb: UInt32) { self.rgb = rgb }
///     init?(storedValue: SQLValue) {
///         guard case .text(let text) = storedValue, let rgb = UInt32(text, radix: 16) else { return nil }
///         self.rgb = rgb
///     }
///     func makeStoredValue() -> SQLValue { .text(String(rgb, radix: 16)) }
/// }
/// ```
public enum SQLValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A double-precision floating point number.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// A binary blob.
    case blob(Data)

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The storage class name SQLite uses for this value (`NULL`, `INTEGER`, `REAL`, `TEXT`, `BLOB`).
    public var storageClassName: String {
        switch self {
        case .null: return "NULL"
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .text: return "TEXT"
        case .blob: return "BLOB"
        }
    }
}

extension SQLValue: CustomStringConvertible {
    /// A short, SQL-like rendering of the value, for error messages.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value):
            let shown = value.count > 60 ? String(value.prefix(57)) + "..." : value
            return "'" + shown.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data): return "<\(data.count) bytes>"
        }
    }
}
