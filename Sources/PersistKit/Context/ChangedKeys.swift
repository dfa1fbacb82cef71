/// The names of the attributes and relationships a change notice reports as changed for one
/// object.
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

    /// Whether the attribute or relationship `key` changed.
    public func contains(_ key: String) -> Bool {
        guard let slot = entity.slot(forKey: key) else { return false }
        if slots.contains(slot) { return true }
        // An ordered to-one's position column reports under the relationship's name too.
        return entity.columns.contains { $0.keyName == key && $0.slot != slot && slots.contains($0.slot) }
    }

    /// The changed attribute and relationship names, as a set.
    public var names: Set<String> { Set(self) }

    /// Whether nothing changed.
    public var isEmpty: Bool { slots.isEmpty }

    /// The changed names, in slot order (attributes, then relationships), each once.
    public func makeIterator() -> IndexingIterator<[String]> {
        var seen = Set<String>()
        return slots.slots.compactMap { entity.keyName(forSlot: $0) }.filter { seen.insert($0).inserted }.makeIterator()
    }

    /// The names, comma-separated.
    public var description: String { Array(self).joined(separator: ", ") }

    /// Equal when the same entity's same attributes changed.
    public static func == (lhs: ChangedKeys, rhs: ChangedKeys) -> Bool {
        lhs.entity === rhs.entity && lhs.slots == rhs.slots
    }
}
