/// Declares that a relationship has no inverse: `@Relationship(inverse: .none)`.
public enum RelationshipInverse: Sendable {
    /// The relationship is one-way: nothing points back.
    case none
}
