/// The declared type of an attribute, as the model document names it.
///
/// Each type has one SQLite storage class: integers and booleans are `INTEGER`, `double`,
/// `float` and `date` are `REAL` (dates as seconds since 2001-01-01, Foundation's reference
/// date, which round-trips exactly), `string`, `uri` and `json` are
/// `TEXT`, `binary` and `uuid` are `BLOB` (a UUID as its 16 bytes).
///
/// ```swift
/// model.entity(named: "Task")?.attribute(named: "due")?.type   // .date
/// Priority.attributeType                                       // .integer (an Int-backed enum)
/// ```
public enum AttributeType: String, Sendable, Codable, CaseIterable {
    /// `Bool`, stored as 0 or 1.
    case boolean
    /// `Int`.
    case integer
    /// `Int64`.
    case integer64
    /// `Int32`.
    case integer32
    /// `Int16`.
    case integer16
    /// `Double`.
    case double
    /// `Float`.
    case float
    /// `String`.
    case string
    /// `Date`, stored as seconds since 2001-01-01.
    case date
    /// `Data`.
    case binary
    /// `UUID`, stored as 16 bytes.
    case uuid
    /// `URL`, stored as its absolute string.
    case uri
    /// Any `Codable` value, stored as JSON text with sorted keys.
    case json

    /// The type's name after its article, for messages: `an integer`, `a string`, `a uuid`.
    var nameWithArticle: String {
        // Of the names, only the integers' begin with a vowel sound ("uuid" and "uri" do not).
        (rawValue.hasPrefix("integer") ? "an " : "a ") + rawValue
    }

    /// The SQLite column type used for this attribute type.
    var columnType: String {
        switch self {
        case .boolean, .integer, .integer64, .integer32, .integer16: return "INTEGER"
        case .double, .float, .date: return "REAL"
        case .string, .uri, .json: return "TEXT"
        case .binary, .uuid: return "BLOB"
        }
    }

    /// The type declared in `CREATE TABLE`. Real-valued columns declare none: SQLite's REAL
    /// affinity writes whole-number reals as integers, which turns -0.0 into 0.0; without
    /// affinity the 8-byte value is kept exactly.
    var declaredColumnType: String {
        columnType == "REAL" ? "" : columnType
    }

    /// Whether a value read from the store has the storage class this type expects.
    /// Integers are accepted where reals are expected (SQLite may store 1.0 as 1).
    func accepts(_ value: SQLValue) -> Bool {
        switch (columnType, value) {
        case ("INTEGER", .integer), ("REAL", .real), ("REAL", .integer), ("TEXT", .text), ("BLOB", .blob):
            return true
        default:
            return false
        }
    }

    /// Whether values must be decoded to be validated (an enum's raw value, JSON, a UUID's length).
    var needsDecodingCheck: Bool {
        switch self {
        case .integer32, .integer16, .uuid, .uri, .json: return true
        default: return false
        }
    }
}
