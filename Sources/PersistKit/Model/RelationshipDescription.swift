/// One relationship of an entity: its destination, kind, inverse, delete rule and counts.
///
/// ```swift
/// let tasks = model.entity(named: "Project")?.relationship(named: "tasks")
/// tasks?.kind            // .toMany
/// tasks?.inverseName     // "project"
/// ```
public struct RelationshipDescription: Sendable, Hashable {
    /// The relationship's name (for a to-one, also its foreign-key column's name).
    public let name: String
    /// The name of the entity it points at.
    public let destinationEntityName: String
    /// One object, a set or an ordered list.
    public let kind: RelationshipKind
    /// The name of the destination's relationship that points back, if there is one.
    public let inverseName: String?
    /// What deleting the source object does to the related objects.
    public let deleteRule: DeleteRule
    /// The fewest objects allowed at save (a to-one with 1 is required), if declared.
    public let minimumCount: Int?
    /// The most objects allowed at save, if declared.
    public let maximumCount: Int?
    /// The relationship's index among its entity's relationships.
    public let index: Int
    /// The relationship's name in the previous model version, when this version renamed it
    /// (`@Relationship(originalName:)`); a migration keeps its links.
    public let originalName: String?
    /// How it is stored (computed by the model from both sides).
    let storage: RelationshipStorage

    init(name: String, destinationEntityName: String, kind: RelationshipKind, inverseName: String?,
         deleteRule: DeleteRule, minimumCount: Int?, maximumCount: Int?, index: Int,
         storage: RelationshipStorage = .unresolved, originalName: String? = nil) {
        self.name = name
        self.destinationEntityName = destinationEntityName
        self.kind = kind
        self.inverseName = inverseName
        self.deleteRule = deleteRule
        self.minimumCount = minimumCount
        self.maximumCount = maximumCount
        self.index = index
        self.storage = storage
        self.originalName = originalName
    }

    /// Whether a to-one must hold an object at save.
    public var isRequired: Bool { kind == .toOne && (minimumCount ?? 0) > 0 }

    func resolved(_ storage: RelationshipStorage) -> RelationshipDescription {
        RelationshipDescription(name: name, destinationEntityName: destinationEntityName, kind: kind, inverseName: inverseName,
                                deleteRule: deleteRule, minimumCount: minimumCount, maximumCount: maximumCount,
                                index: index, storage: storage, originalName: originalName)
    }
}

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
