/// What a relationship holds: one object, a set, or an ordered list.
public enum RelationshipKind: String, Sendable, Hashable, Codable {
    /// At most one object (`var project: Project?`).
    case toOne
    /// An unordered set of objects (`var tags: Set<Tag>`).
    case toMany
    /// An ordered list of distinct objects (`var steps: [Step]`).
    case orderedToMany

    /// Whether the relationship holds several objects.
    public var isToMany: Bool { self != .toOne }

    /// The kind in words, for messages: `to-one`, `to-many`, `ordered to-many`.
    package var words: String {
        switch self {
        case .toOne: return "to-one"
        case .toMany: return "to-many"
        case .orderedToMany: return "ordered to-many"
        }
    }
}
