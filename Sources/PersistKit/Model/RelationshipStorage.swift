/// Where a relationship's contents live in SQLite and in memory.
///
/// One side of each pair *owns* the link (holds it in its storage and writes it); the other
/// side is derived from it, so both sides always agree and rollback restores both at once.
enum RelationshipStorage: Sendable, Hashable {
    /// Not yet resolved against a model (an entity reflected from its class alone).
    case unresolved
    /// A to-one: the destination's primary key in column slot `slot` of this entity (NULL for
    /// nil). `positionSlot` is set when the inverse is ordered: this object's place in it.
    case foreignKey(slot: Int, positionSlot: Int?)
    /// A to-many whose inverse is a to-one: the destination rows whose foreign key (in the
    /// destination's slot `slot`) holds this object's key, ordered by `positionSlot` if ordered.
    case inverseForeignKey(inverse: Int, slot: Int, positionSlot: Int?)
    /// A to-many stored in a join table. The owning side (`isOwner`) holds the list in memory and
    /// writes the rows; the other side is derived from the table.
    case joinTable(JoinTable, isOwner: Bool)
}
