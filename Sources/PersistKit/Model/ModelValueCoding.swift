import Foundation

/// Converts between Swift values and stored values by attribute type, for entities that have
/// no class (models loaded from a document) and for format-string arguments.
enum ModelValueCoding {
    /// The Swift value of a stored value: Bool, Int, Int64, Int32, Int16, Double, Float,
    /// String, Date, Data, UUID, URL, or the JSON text of a `json` attribute.
    static func value(from stored: SQLValue, type: AttributeType) -> Any? {
        switch type {
        case .boolean: return Bool(storedValue: stored)
        case .integer: return Int(storedValue: stored)
        case .integer64: return Int64(storedValue: stored)
        case .integer32: return Int32(storedValue: stored)
        case .integer16: return Int16(storedValue: stored)
        case .double: return Double(storedValue: stored)
        case .float: return Float(storedValue: stored)
        case .string: return String(storedValue: stored)
        case .date: return Date(storedValue: stored)
        case .binary: return Data(storedValue: stored)
        case .uuid: return UUID(storedValue: stored)
        case .uri: return URL(storedValue: stored)
        case .json: return String(storedValue: stored)
        }
    }

    /// The stored value of a Swift value for an attribute type, or nil when the value does not
    /// fit the type. Integers fit number types, any `AttributeValue` of the same storage class
    /// fits (an enum fits its raw value's type).
    static func storedValue(from value: Any?, type: AttributeType) -> SQLValue? {
        guard let value, !(value is NSNull) else { return .null }
        if let optional = value as? OptionalProtocol {
            guard let wrapped = optional.wrappedAny else { return .null }
            return storedValue(from: wrapped, type: type)
        }
        switch type {
        case .boolean:
            if let bool = value as? Bool { return .integer(bool ? 1 : 0) }
            if let integer = integerValue(value) { return .integer(integer == 0 ? 0 : 1) }
            return nil
        case .integer, .integer64, .integer32, .integer16:
            if let integer = integerValue(value) {
                switch type {
                case .integer32 where Int32(exactly: integer) == nil: return nil
                case .integer16 where Int16(exactly: integer) == nil: return nil
                default: return .integer(integer)
                }
            }
            if value is Bool { return nil }
            if let attribute = value as? any AttributeValue, let stored = try? attribute.makeStoredValue(),
               case .integer = stored { return stored }
            return nil
        case .double, .float:
            if let double = value as? Double { return .real(double) }
            if let float = value as? Float { return .real(Double(float)) }
            if let integer = integerValue(value) { return .integer(integer) }
            return nil
        case .date:
            if let date = value as? Date { return date.makeStoredValue() }
            return nil
        case .string:
            if let string = value as? String { return .text(string) }
            if let substring = value as? Substring { return .text(String(substring)) }
            if let attribute = value as? any AttributeValue, let stored = try? attribute.makeStoredValue(),
               case .text = stored { return stored }
            return nil
        case .binary:
            if let data = value as? Data { return .blob(data) }
            if let bytes = value as? [UInt8] { return .blob(Data(bytes)) }
            return nil
        case .uuid:
            if let uuid = value as? UUID { return uuid.makeStoredValue() }
            if let string = value as? String, let uuid = UUID(uuidString: string) { return uuid.makeStoredValue() }
            return nil
        case .uri:
            if let url = value as? URL { return .text(url.absoluteString) }
            if let string = value as? String, URL(string: string) != nil { return .text(string) }
            return nil
        case .json:
            if let attribute = value as? any AttributeValue, let stored = try? attribute.makeStoredValue(),
               case .text = stored { return stored }
            if let string = value as? String { return .text(string) }
            return nil
        }
    }

    private static func integerValue(_ value: Any) -> Int64? {
        if value is Bool { return nil }
        if let integer = value as? any BinaryInteger { return Int64(exactly: integer) }
        return nil
    }

    /// A Swift-side name for a value's type, for error messages.
    static func typeName(of value: Any?) -> String {
        guard let value else { return "nil" }
        return String(describing: Swift.type(of: value))
    }
}

extension Optional: OptionalProtocol {
    var wrappedAny: Any? {
        switch self {
        case .none: return nil
        case .some(let wrapped): return wrapped
        }
    }
}
