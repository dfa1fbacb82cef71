/// One column of an entity's table after `_pk` and `_version`, which is also one slot of each
/// object's storage: the attributes first, then each to-one's foreign key, then the positions
/// of objects in ordered to-manys whose inverse is a to-one.
///
/// An entity in an inheritance tree has every column of the tree's table, in the same slots
/// for every entity of the tree past the attributes (see `EntityInheritance`): its own
/// attributes, the tree's other attribute columns (`.otherEntity`), then the tree's
/// relationship columns, so one relationship's slot is the same on any object of the tree.
struct StoredColumn: Sendable, Hashable {
    enum Role: Sendable, Hashable {
        case attribute
        /// The destination's primary key of the to-one `relationship` (an index).
        case foreignKey(relationship: Int)
        /// This object's place in the ordered inverse of the to-one `relationship`.
        case position(relationship: Int)
        /// A column of another entity of the inheritance tree: always NULL in this entity's rows.
        case otherEntity
    }

    let name: String
    let slot: Int
    let type: AttributeType
    let isOptional: Bool
    let role: Role

    /// The name a change notice reports for the slot: the attribute's or the relationship's.
    let keyName: String
    /// For a foreign key of an inheritance tree's table (`EntityInheritance.tableColumns`): the
    /// table it refers to (the entity declaring it may be a sub-entity, not the tree's root).
    var referencedTableName: String? = nil

    /// `_<relationship>_position`: PersistKit's own name (a leading `_` is reserved).
    static func positionColumnName(for relationship: String) -> String {
        "_" + relationship + "_position"
    }
}
