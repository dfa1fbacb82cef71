import Foundation

/// An attribute value type with a natural "empty" value, so `@Attribute var x: T` may omit its
/// initial value: the attribute then reads as the placeholder until set, and a save fails
/// validation if it is still unset. Types without one (enums, `Codable` values) declare an
/// initial value: `@Attribute var priority: Priority = .normal`.
///
/// ```swift
/// final class Note: ManagedObject {
///     @Attribute var title: String                     // reads "" until set; a save fails if unset
///     @Attribute var priority: Priority = .normal      // no placeholder: an initial value
/// }
/// ```
public protocol PlaceholderAttributeValue: AttributeValue {
    /// The value an unset attribute reads as.
    static var attributePlaceholder: Self { get }
}
