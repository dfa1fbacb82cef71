import Foundation
import PersistKit

/// The fuzzed entity: one attribute of each kind a predicate compares, a to-one and a to-many.
public final class FZItem: ManagedObject {
    /// Which item this is, the same in every store (predicates may select by it too).
    @Attribute public var seq: Int
    @Attribute public var name: String
    @Attribute public var note: String?
    @Attribute public var count: Int
    @Attribute public var ratio: Double?
    @Attribute public var flag: Bool
    @Attribute public var day: Date?
    @Relationship(inverse: \FZGroup.items) public var group: FZGroup?
    @Relationship(inverse: \FZLabel.items) public var labels: Set<FZLabel>
}
