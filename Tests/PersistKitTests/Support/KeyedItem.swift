import PersistKit

/// Items with a unique (so indexed) integer key, an optional label and an optional amount
/// (`LargeInListTests`: long `IN` lists looked up through an index).
final class KeyedItem: ManagedObject {
    @Attribute(.unique) var key: Int64 = 0
    @Attribute var label: String?
    @Attribute var amount: Double?
}
