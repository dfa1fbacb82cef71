/// A many-to-many (or inverse-less to-many) relationship's table: one row per link.
struct JoinTable: Sendable, Hashable {
    /// `_persistkit_join_<OwnerEntity>_<relationship>`.
    let name: String
    /// The entity whose relationship owns the table, and the entity it points at.
    let ownerEntity: String
    let destinationEntity: String
    /// The tables the owner's and the destination's rows live in (an inheritance tree's for an
    /// entity in one): the columns refer to them.
    let ownerTable: String
    let destinationTable: String
    /// Whether rows carry the owner's order (`position`).
    let isOrdered: Bool

    static let ownerColumn = "owner"
    static let destinationColumn = "destination"
    static let positionColumn = "position"
}
