import Foundation

/// What an option says, without its value type: read once per entity, at model creation.
@usableFromInline
enum AttributeOptionKind: Sendable, Hashable {
    case unique
    /// Length bounds; nil for a side not given.
    case length(minimum: Int?, maximum: Int?)
    /// Value bounds in their stored form; nil for a side not given.
    case bounds(minimum: SQLValue?, maximum: SQLValue?)
    case pattern(String)
    /// A bound that could not be encoded, with the encoding error: the model refuses it.
    case unencodableBound(String)
    /// Values larger than `threshold` bytes are kept in files beside the store.
    case externalStorage(threshold: Int)

    /// Bounds in their stored form, or the reason one cannot be stored.
    @inlinable
    static func encodedBounds<Bound: AttributeValue>(_ minimum: Bound?, _ maximum: Bound?) -> AttributeOptionKind {
        do {
            return .bounds(minimum: try minimum?.makeStoredValue(), maximum: try maximum?.makeStoredValue())
        } catch {
            return .unencodableBound("\(error)")
        }
    }
}
