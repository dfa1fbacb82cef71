import Foundation

/// An attribute value type whose length `.minLength`, `.maxLength` and `.length` can bound:
/// `String` (in characters), `Data` (in bytes), and optionals of them.
///
/// ```swift
/// @Attribute(.minLength(1), .maxLength(1000)) var name: String
/// @Attribute(.maxLength(65_536)) var thumbnail: Data?
/// ```
public protocol MeasuredAttributeValue: AttributeValue {}

extension String: MeasuredAttributeValue {}

extension Data: MeasuredAttributeValue {}

extension Optional: MeasuredAttributeValue where Wrapped: MeasuredAttributeValue {}
