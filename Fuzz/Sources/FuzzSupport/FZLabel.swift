import PersistKit

/// The to-many side of ``FZItem``: `ANY labels.text`, `labels.@count`, `SUBQUERY(labels, ...)`.
public final class FZLabel: ManagedObject {
    @Attribute public var text: String
    @Relationship public var items: Set<FZItem>
}
