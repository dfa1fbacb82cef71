/// One column of an entity's table after `_pk` and `_version`, which is also one slot of each
/// object's storage: the attributes first, then each to-one's foreign key, then the positions
/// of objects in ordered to-manys whose inverse is a to-one.
struct StoredColumn: Sendable, Hashable {
    enum Role: Sendable, Hashable {
        case attribute
        /// The destination's primary key of the to-one `relationship` (an index).
        case foreignKey(relationship: Int)
        /// This object's place in the ordered inverse of the to-one `relationship`.
        case position(relationship: Int)
    }

    let name: String
    let slot: Int
    let type: AttributeType
    let isOptional: Bool
    let role: Role

    /// The name a change notice reports for the slot: the attribute's or the relationship's.
    let keyName: String

    /// `_<relationship>_position`: PersistKit's own name (a leading `_` is reserved).
    static func positionColumnName(for relationship: String) -> String {
        "_" + relationship + "_position"
    }
}
