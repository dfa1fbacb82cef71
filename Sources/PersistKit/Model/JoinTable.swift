/// A many-to-many (or inverse-less to-many) relationship's table: one row per link.
struct JoinTable: Sendable, Hashable {
    /// `_persistkit_join_<OwnerEntity>_<relationship>`.
    let name: String
    /// The entity whose relationship owns the table, and the entity it points at.
    let ownerEntity: String
    let destinationEntity: String
    /// Whether rows carry the owner's order (`position`).
    let isOrdered: Bool

    static let ownerColumn = "owner"
    static let destinationColumn = "destination"
    static let positionColumn = "position"
}
