import Foundation

extension Bool: PlaceholderAttributeValue {
    /// `.boolean`.
    public static var attributeType: AttributeType { .boolean }
    /// `false`.
    @inlinable
    public static var attributePlaceholder: Bool { false }
    /// Any integer; non-zero is true.
    @inlinable
    public init?(storedValue: SQLValue) {
        guard case .integer(let value) = storedValue else { return nil }
        self = value != 0
    }
    /// 1 or 0.
    @inlinable
    public func makeStoredValue() -> SQLValue { .integer(self ? 1 : 0) }
}

extension Int: PlaceholderAttributeValue {
    /// `.integer`.
    public static var attributeType: AttributeType { .integer }
    /// 0.
    @inlinable
    public static var attributePlaceholder: Int { 0 }
    /// An integer that fits.
    @inlinable
    public init?(storedValue: SQLValue) {
        guard case .integer(let value) = storedValue, let fitted = Int(exactly: value) else { return nil }
        self = fitted
    }
    /// The integer.
    @inlinable
    public func makeStoredValue() -> SQLValue { .integer(Int64(self)) }
}

extension Int64: PlaceholderAttributeValue {
    /// `.integer64`.
    public static var attributeType: AttributeType { .integer64 }
    /// 0.
    @inlinable
    public static var attributePlaceholder: Int64 { 0 }
    /// An integer.
    @inlinable
    public init?(storedValue: SQLValue) {
        guard case .integer(let value) = storedValue else { return nil }
        self = value
    }
    /// The integer.
    @inlinable
    public func makeStoredValue() -> SQLValue { .integer(self) }
}

extension Int32: PlaceholderAttributeValue {
    /// `.integer32`.
    public static var attributeType: AttributeType { .integer32 }
    /// 0.
    @inlinable
    public static var attributePlaceholder: Int32 { 0 }
    /// An integer in Int32's range.
    @inlinable
    public init?(storedValue: SQLValue) {
        guard case .integer(let value) = storedValue, let fitted = Int32(exactly: value) else { return nil }
        self = fitted
    }
    /// The integer.
    @inlinable
    public func makeStoredValue() -> SQLValue { .integer(Int64(self)) }
}

extension Int16: PlaceholderAttributeValue {
    /// `.integer16`.
    public static var attributeType: AttributeType { .integer16 }
    /// 0.
    @inlinable
    public static var attributePlaceholder: Int16 { 0 }
    /// An integer in Int16's range.
    @inlinable
    public init?(storedValue: SQLValue) {
        guard case .integer(let value) = storedValue, let fitted = Int16(exactly: value) else { return nil }
        self = fitted
    }
    /// The integer.
    @inlinable
    public func makeStoredValue() -> SQLValue { .integer(Int64(self)) }
}

extension Double: PlaceholderAttributeValue {
    /// `.double`.
    public static var attributeType: AttributeType { .double }
    /// 0.
    @inlinable
    public static var attributePlaceholder: Double { 0 }
    /// A real, or an integer.
    @inlinable
    public init?(storedValue: SQLValue) {
        switch storedValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
    /// The real. NaN is rejected when the object is validated, because SQLite stores it as NULL.
    @inlinable
    public func makeStoredValue() -> SQLValue { .real(self) }
}

extension Float: PlaceholderAttributeValue {
    /// `.float`.
    public static var attributeType: AttributeType { .float }
    /// 0.
    @inlinable
    public static var attributePlaceholder: Float { 0 }
    /// A real, or an integer.
    @inlinable
    public init?(storedValue: SQLValue) {
        switch storedValue {
        case .real(let value): self = Float(value)
        case .integer(let value): self = Float(value)
        default: return nil
        }
    }
    /// The real, widened to Double.
    @inlinable
    public func makeStoredValue() -> SQLValue { .real(Double(self)) }
}

extension String: PlaceholderAttributeValue {
    /// `.string`.
    public static var attributeType: AttributeType { .string }
    /// The empty string.
    @inlinable
    public static var attributePlaceholder: String { "" }
    /// Text.
    @inlinable
    public init?(storedValue: SQLValue) {
        guard case .text(let value) = storedValue else { return nil }
        self = value
    }
    /// The text.
    @inlinable
    public func makeStoredValue() -> SQLValue { .text(self) }
}

extension Date: PlaceholderAttributeValue {
    /// `.date`.
    public static var attributeType: AttributeType { .date }
    /// 1970-01-01.
    @inlinable
    public static var attributePlaceholder: Date { Date(timeIntervalSince1970: 0) }
    /// Seconds since 2001-01-01 (Foundation's reference date).
    @inlinable
    public init?(storedValue: SQLValue) {
        switch storedValue {
        case .real(let value): self = Date(timeIntervalSinceReferenceDate: value)
        case .integer(let value): self = Date(timeIntervalSinceReferenceDate: Double(value))
        default: return nil
        }
    }
    /// Seconds since 2001-01-01, as a real: exactly the `Double` a `Date` holds, so a date
    /// reads back identical (converting to 1970-based seconds would round).
    @inlinable
    public func makeStoredValue() -> SQLValue { .real(timeIntervalSinceReferenceDate) }
}

extension Data: PlaceholderAttributeValue {
    /// `.binary`.
    public static var attributeType: AttributeType { .binary }
    /// Empty data.
    @inlinable
    public static var attributePlaceholder: Data { Data() }
    /// A blob.
    @inlinable
    public init?(storedValue: SQLValue) {
        guard case .blob(let value) = storedValue else { return nil }
        self = value
    }
    /// The blob.
    @inlinable
    public func makeStoredValue() -> SQLValue { .blob(self) }
}

extension UUID: PlaceholderAttributeValue {
    /// `.uuid`.
    public static var attributeType: AttributeType { .uuid }
    /// The nil UUID (all zeros).
    @inlinable
    public static var attributePlaceholder: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
    /// A 16-byte blob.
    @inlinable
    public init?(storedValue: SQLValue) {
        guard case .blob(let data) = storedValue, data.count == 16 else { return nil }
        let b = [UInt8](data)
        self = UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                           b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
    /// The 16 bytes.
    @inlinable
    public func makeStoredValue() -> SQLValue {
        withUnsafeBytes(of: uuid) { .blob(Data($0)) }
    }
}

extension URL: PlaceholderAttributeValue {
    /// `.uri`.
    public static var attributeType: AttributeType { .uri }
    /// `file:///`.
    @inlinable
    public static var attributePlaceholder: URL { URL(fileURLWithPath: "/") }
    /// Text that parses as a URL.
    @inlinable
    public init?(storedValue: SQLValue) {
        guard case .text(let text) = storedValue, let url = URL(string: text) else { return nil }
        self = url
    }
    /// The absolute string.
    @inlinable
    public func makeStoredValue() -> SQLValue { .text(absoluteString) }
}
