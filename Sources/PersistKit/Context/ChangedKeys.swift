/// The names of the attributes a change notice reports as changed for one object.
///
/// Made on demand from the changed slots: a notice costs nothing per key unless an observer
/// asks.
///
/// ```swift
/// for (object, keys) in notice.updated where keys.contains("due") { ... }
/// ```
public struct ChangedKeys: Sequence, Equatable, CustomStringConvertible {
    private let entity: EntityDescription
    private let slots: SlotSet

    init(entity: EntityDescription, slots: SlotSet) {
        self.entity = entity
        self.slots = slots
    }

    /// Whether the attribute `key` changed.
    public func contains(_ key: String) -> Bool {
        guard let index = entity.attributeIndexByName[key] else { return false }
        return slots.contains(index)
    }

    /// The changed attribute names, as a set.
    public var names: Set<String> { Set(self) }

    /// Whether no attribute changed.
    public var isEmpty: Bool { slots.isEmpty }

    /// The changed attribute names, in slot order.
    public func makeIterator() -> IndexingIterator<[String]> {
        slots.slots.compactMap { $0 < entity.attributes.count ? entity.attributes[$0].name : nil }.makeIterator()
    }

    /// The names, comma-separated.
    public var description: String { Array(self).joined(separator: ", ") }

    /// Equal when the same entity's same attributes changed.
    public static func == (lhs: ChangedKeys, rhs: ChangedKeys) -> Bool {
        lhs.entity === rhs.entity && lhs.slots == rhs.slots
    }
}
