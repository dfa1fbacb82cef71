import Foundation

/// The Swift types whose every value of the right storage class decodes: reading them needs no
/// check beyond the storage class. Any other declared type (an enum) is decoded once at fetch,
/// so a value that fits no case is a `.typeMismatch`, not a silent default.
enum PlainAttributeTypes {
    private static let plain: Set<ObjectIdentifier> = [
        ObjectIdentifier(Bool.self), ObjectIdentifier(Int.self), ObjectIdentifier(Int64.self),
        ObjectIdentifier(Double.self), ObjectIdentifier(Float.self), ObjectIdentifier(String.self),
        ObjectIdentifier(Date.self), ObjectIdentifier(Data.self),
        ObjectIdentifier(Bool?.self), ObjectIdentifier(Int?.self), ObjectIdentifier(Int64?.self),
        ObjectIdentifier(Double?.self), ObjectIdentifier(Float?.self), ObjectIdentifier(String?.self),
        ObjectIdentifier(Date?.self), ObjectIdentifier(Data?.self),
    ]

    static func isPlain(_ type: any AttributeValue.Type) -> Bool {
        plain.contains(ObjectIdentifier(type))
    }
}
