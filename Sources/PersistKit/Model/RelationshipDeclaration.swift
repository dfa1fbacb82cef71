/// A relationship as a class's `@Relationship` or a model document declares it, before the
/// model resolves its destination, inverse and storage.
struct RelationshipDeclaration: @unchecked Sendable {
    // @unchecked Sendable: immutable; the key paths it holds are immutable objects the Swift
    // runtime shares between threads (AnyKeyPath is not marked Sendable).

    /// Which entity the relationship points at.
    enum Destination {
        case objectClass(ManagedObject.Type)
        case entityName(String)
    }

    /// What the declaration says of the inverse.
    enum Inverse {
        /// Nothing: the inverse must be named on the other side.
        case unspecified
        /// `inverse: .none`: deliberately one-way.
        case none
        case keyPath(AnyKeyPath)
        case name(String)
    }

    let name: String
    let destination: Destination
    let kind: RelationshipKind
    let inverse: Inverse
    let deleteRule: DeleteRule
    let minimumCount: Int?
    let maximumCount: Int?
    /// The name in the previous model version, when this version renamed the relationship.
    var originalName: String? = nil

    var destinationName: String {
        switch destination {
        case .objectClass(let objectClass): return objectClass.entityName
        case .entityName(let name): return name
        }
    }

    func unresolved(index: Int) -> RelationshipDescription {
        var inverseName: String?
        if case .name(let name) = inverse { inverseName = name }
        return RelationshipDescription(name: name, destinationEntityName: destinationName, kind: kind, inverseName: inverseName,
                                       deleteRule: deleteRule, minimumCount: minimumCount, maximumCount: maximumCount, index: index,
                                       originalName: originalName)
    }
}
