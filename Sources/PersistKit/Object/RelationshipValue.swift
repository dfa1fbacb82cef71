/// The types a ``Relationship`` can hold: an optional object (to-one), a `Set` (to-many) or an
/// `Array` (ordered to-many) of a ``ManagedObject`` subclass. PersistKit conforms them; you
/// don't conform your own types.
public protocol RelationshipValue {
    /// The class of the related objects.
    associatedtype Destination: ManagedObject
    /// Which of the three kinds of relationship this type declares.
    static var relationshipKind: RelationshipKind { get }
    /// The value holding `objects` (at most one for a to-one).
    static func relationshipValue(_ objects: [ManagedObject]) -> Self
    /// The value's objects, in order.
    var relatedObjects: [ManagedObject] { get }
    /// The value holding at most one object (what a to-one reads, without making an array).
    static func relationshipValue(toOne object: ManagedObject?) -> Self
    /// The object a to-one value holds (what a to-one assignment sets, without making an array).
    var toOneObject: ManagedObject? { get }
}

extension RelationshipValue {
    /// The first of the value's objects, if any.
    public var toOneObject: ManagedObject? { relatedObjects.first }

    /// The value holding `object`, if any.
    public static func relationshipValue(toOne object: ManagedObject?) -> Self {
        relationshipValue(object.map { [$0] } ?? [])
    }
}

extension Optional: RelationshipValue where Wrapped: ManagedObject {
    /// The related object's class.
    public typealias Destination = Wrapped
    /// `.toOne`.
    public static var relationshipKind: RelationshipKind { .toOne }
    /// The first object, if any.
    public static func relationshipValue(_ objects: [ManagedObject]) -> Self { objects.first as? Wrapped }
    /// The object, if it is a `Wrapped`.
    public static func relationshipValue(toOne object: ManagedObject?) -> Self { object as? Wrapped }
    /// The object, if any.
    public var relatedObjects: [ManagedObject] { self.map { [$0] } ?? [] }
    /// The object, if any.
    public var toOneObject: ManagedObject? { self }
}

extension Set: RelationshipValue where Element: ManagedObject {
    /// The related objects' class.
    public typealias Destination = Element
    /// `.toMany`.
    public static var relationshipKind: RelationshipKind { .toMany }
    /// A set of the objects.
    public static func relationshipValue(_ objects: [ManagedObject]) -> Self { Set(objects.compactMap { $0 as? Element }) }
    /// The objects, in no particular order.
    public var relatedObjects: [ManagedObject] { map { $0 } }
}

extension Array: RelationshipValue where Element: ManagedObject {
    /// The related objects' class.
    public typealias Destination = Element
    /// `.orderedToMany`.
    public static var relationshipKind: RelationshipKind { .orderedToMany }
    /// The objects, in order.
    public static func relationshipValue(_ objects: [ManagedObject]) -> Self { objects.compactMap { $0 as? Element } }
    /// The objects, in order.
    public var relatedObjects: [ManagedObject] { map { $0 } }
}
