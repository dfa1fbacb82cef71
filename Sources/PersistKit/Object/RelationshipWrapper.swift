/// What the model needs to know of a `@Relationship` found by reflection.
protocol RelationshipWrapper {
    static var destinationClass: ManagedObject.Type { get }
    static var kind: RelationshipKind { get }
    var probeMark: Bool { get set }
    func declaration(named name: String) -> RelationshipDeclaration
}
