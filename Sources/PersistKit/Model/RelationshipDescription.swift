/// One relationship of an entity: its destination, kind, inverse, delete rule and counts.
///
/// ```swift
/// let tasks = model.entity(named: "Project")?.relationship(named: "tasks")
/// tasks?.kind            // .toMany
/// tasks?.inverseName     // "project"
/// ```
public struct RelationshipDescription: Sendable, Hashable {
    /// The relationship's name (for a to-one, also its foreign-key column's name).
    public var name: String { fields.values.name }
    /// The name of the entity it points at.
    public var destinationEntityName: String { fields.values.destinationEntityName }
    /// One object, a set or an ordered list.
    public var kind: RelationshipKind { fields.values.kind }
    /// The name of the destination's relationship that points back, if there is one.
    public var inverseName: String? { fields.values.inverseName }
    /// What deleting the source object does to the related objects.
    public var deleteRule: DeleteRule { fields.values.deleteRule }
    /// The fewest objects allowed at save (a to-one with 1 is required), if declared.
    public var minimumCount: Int? { fields.values.minimumCount }
    /// The most objects allowed at save, if declared.
    public var maximumCount: Int? { fields.values.maximumCount }
    /// The relationship's index among its entity's relationships.
    public var index: Int { fields.values.index }
    /// The relationship's name in the previous model version, when this version renamed it
    /// (`@Relationship(originalName:)`); a migration keeps its links.
    public var originalName: String? { fields.values.originalName }
    /// How it is stored (computed by the model from both sides).
    var storage: RelationshipStorage { fields.values.storage }
    /// The inverse's index among the destination's relationships, once the model resolved it:
    /// changing a link finds the other side without looking it up by name.
    var inverseIndex: Int? { fields.values.inverseIndex }
    /// The table the destination's rows live in: its own, or its inheritance tree's (where a
    /// foreign key refers to them).
    var destinationTableName: String { fields.values.destinationTableName ?? fields.values.destinationEntityName }

    /// The values, shared by every copy: a description is copied on each link changed, and
    /// copying its strings one by one cost more than the change itself.
    private let fields: Fields

    init(name: String, destinationEntityName: String, kind: RelationshipKind, inverseName: String?,
         deleteRule: DeleteRule, minimumCount: Int?, maximumCount: Int?, index: Int,
         storage: RelationshipStorage = .unresolved, originalName: String? = nil, inverseIndex: Int? = nil,
         destinationTableName: String? = nil) {
        fields = Fields(Values(name: name, destinationEntityName: destinationEntityName, kind: kind, inverseName: inverseName,
                               deleteRule: deleteRule, minimumCount: minimumCount, maximumCount: maximumCount, index: index,
                               originalName: originalName, storage: storage, inverseIndex: inverseIndex,
                               destinationTableName: destinationTableName))
    }

    /// Two descriptions are equal when all their values are.
    public static func == (lhs: RelationshipDescription, rhs: RelationshipDescription) -> Bool {
        lhs.fields === rhs.fields || lhs.fields.values == rhs.fields.values
    }

    /// Hashes all the values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields.values)
    }

    private final class Fields: Sendable {
        let values: Values
        init(_ values: Values) { self.values = values }
    }

    private struct Values: Hashable, Sendable {
        let name: String
        let destinationEntityName: String
        let kind: RelationshipKind
        let inverseName: String?
        let deleteRule: DeleteRule
        let minimumCount: Int?
        let maximumCount: Int?
        let index: Int
        let originalName: String?
        let storage: RelationshipStorage
        let inverseIndex: Int?
        let destinationTableName: String?
    }

    /// Whether a to-one must hold an object at save.
    public var isRequired: Bool { kind == .toOne && (minimumCount ?? 0) > 0 }

    /// The inverse in `destination` (the entity this relationship points at in the same model).
    func inverse(in destination: EntityDescription) -> RelationshipDescription? {
        guard let inverseIndex, inverseIndex < destination.relationships.count else { return nil }
        return destination.relationships[inverseIndex]
    }
}
