import Foundation

/// An attribute value type that `.minimum`, `.maximum` and `.range` can bound: integers,
/// floating-point numbers, dates, and optionals of them.
///
/// ```swift
/// @Attribute(.range(1...5)) var rating = 3
/// @Attribute(.minimum(0.0)) var price: Double?
/// ```
///
/// The bounds are compared with stored values as SQLite orders them, so a type conforms only
/// when its stored form sorts as its values do.
public protocol OrderedAttributeValue: AttributeValue {
    /// The type of the bounds: the type itself, or the wrapped type of an optional.
    associatedtype Bound: AttributeValue & Comparable
}

extension Int: OrderedAttributeValue {
    /// `Int`.
    public typealias Bound = Int
}

extension Int64: OrderedAttributeValue {
    /// `Int64`.
    public typealias Bound = Int64
}

extension Int32: OrderedAttributeValue {
    /// `Int32`.
    public typealias Bound = Int32
}

extension Int16: OrderedAttributeValue {
    /// `Int16`.
    public typealias Bound = Int16
}

extension Double: OrderedAttributeValue {
    /// `Double`.
    public typealias Bound = Double
}

extension Float: OrderedAttributeValue {
    /// `Float`.
    public typealias Bound = Float
}

extension Date: OrderedAttributeValue {
    /// `Date`.
    public typealias Bound = Date
}

extension Optional: OrderedAttributeValue where Wrapped: OrderedAttributeValue {
    /// The wrapped type's bound: `Int?` is bounded by `Int`s.
    public typealias Bound = Wrapped.Bound
}
