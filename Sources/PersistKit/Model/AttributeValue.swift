import Foundation

/// A type that can be the value of an `@Attribute`.
///
/// PersistKit conforms `Bool`, `Int`, `Int64`, `Int32`, `Int16`, `Double`, `Float`, `String`,
/// `Date`, `Data`, `UUID`, `URL` and `Optional` of any of them. Conform your own types with no
/// code at all:
///
/// ```swift
/// enum Priority: Int, AttributeValue { case low, normal, high }       // stored as its raw value
/// struct Location: Codable, AttributeValue { var lat, lon: Double }   // stored as JSON
/// ```
public protocol AttributeValue {
    /// The declared attribute type.
    static var attributeType: AttributeType { get }
    /// Whether the attribute is optional (nullable); true only for `Optional`.
    static var isOptionalAttribute: Bool { get }
    /// Decodes a stored value; nil when it does not fit this type.
    init?(storedValue: SQLValue)
    /// Encodes the value for the store.
    func makeStoredValue() throws -> SQLValue
}

extension AttributeValue {
    /// Not optional, unless the type is `Optional`.
    public static var isOptionalAttribute: Bool { false }
}

extension AttributeValue where Self: RawRepresentable, RawValue: AttributeValue {
    /// The raw value's attribute type.
    public static var attributeType: AttributeType { RawValue.attributeType }
    /// Decodes the raw value, then the case; nil for an unknown raw value.
    @inlinable
    public init?(storedValue: SQLValue) {
        guard let raw = RawValue(storedValue: storedValue) else { return nil }
        self.init(rawValue: raw)
    }
    /// The raw value, encoded.
    @inlinable
    public func makeStoredValue() throws -> SQLValue { try rawValue.makeStoredValue() }
}

extension AttributeValue where Self: Codable {
    /// JSON.
    public static var attributeType: AttributeType { .json }
    /// Decodes JSON text; nil when it is not a valid encoding of this type.
    @inlinable
    public init?(storedValue: SQLValue) {
        guard case .text(let text) = storedValue,
              let value = try? JSONDecoder().decode(Self.self, from: Data(text.utf8)) else { return nil }
        self = value
    }
    /// Encodes as JSON text with sorted keys, so equal values store equal text. Dates inside use
    /// the default strategy (seconds since 2001), which round-trips exactly.
    @inlinable
    public func makeStoredValue() throws -> SQLValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(self)
        return .text(String(decoding: data, as: UTF8.self))
    }
}

// An enum that is both RawRepresentable and Codable is stored by raw value, not as JSON.
extension AttributeValue where Self: RawRepresentable & Codable, RawValue: AttributeValue {
    /// The raw value's attribute type.
    public static var attributeType: AttributeType { RawValue.attributeType }
    /// Decodes the raw value, then the case.
    @inlinable
    public init?(storedValue: SQLValue) {
        guard let raw = RawValue(storedValue: storedValue) else { return nil }
        self.init(rawValue: raw)
    }
    /// The raw value, encoded.
    @inlinable
    public func makeStoredValue() throws -> SQLValue { try rawValue.makeStoredValue() }
}

extension Optional: PlaceholderAttributeValue where Wrapped: AttributeValue {
    /// nil.
    public static var attributePlaceholder: Self { .none }
}

extension Optional: AttributeValue where Wrapped: AttributeValue {
    /// The wrapped type's attribute type.
    public static var attributeType: AttributeType { Wrapped.attributeType }
    /// Optional attributes are nullable.
    public static var isOptionalAttribute: Bool { true }
    /// NULL decodes as nil.
    @inlinable
    public init?(storedValue: SQLValue) {
        if case .null = storedValue {
            self = .none
            return
        }
        guard let wrapped = Wrapped(storedValue: storedValue) else { return nil }
        self = .some(wrapped)
    }
    /// nil encodes as NULL.
    @inlinable
    public func makeStoredValue() throws -> SQLValue {
        switch self {
        case .none: return .null
        case .some(let wrapped): return try wrapped.makeStoredValue()
        }
    }
}
