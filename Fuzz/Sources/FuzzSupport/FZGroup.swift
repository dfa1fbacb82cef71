import PersistKit

/// The to-one side of ``FZItem``: a predicate may read `group.title`.
public final class FZGroup: ManagedObject {
    @Attribute public var title: String
    @Relationship public var items: Set<FZItem>
}
