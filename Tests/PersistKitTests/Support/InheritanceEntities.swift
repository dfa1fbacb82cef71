import Foundation
@testable import PersistKit

/// An abstract entity with two concrete sub-entities, one of which has a sub-entity of its
/// own, for the entity inheritance tests.
class Animal: ManagedObject {
    override class var isAbstractEntity: Bool { true }
    @Attribute var name = ""
    @Attribute var born: Date?
    @Attribute var weight = 0.0
}

/// A concrete sub-entity of ``Animal`` with a required attribute of its own.
class Dog: Animal {
    @Attribute var breed = ""
    @Attribute var goodBoy = true
}

/// A concrete sub-entity of ``Dog``: its rows are Dogs' and Animals' too.
final class Puppy: Dog {
    @Attribute var trained = false
}

/// A concrete sub-entity of ``Animal`` with an optional attribute of its own.
final class Cat: Animal {
    @Attribute var lives: Int? = 9
}

/// A concrete parent: it has objects of its own and a sub-entity.
class Vehicle: ManagedObject {
    @Attribute var label = ""
    @Attribute var wheels = 4
}

/// A sub-entity of the concrete ``Vehicle``.
final class Truck: Vehicle {
    @Attribute var load = 0.0
}

/// An entity with a to-one to an entity of an inheritance tree, which models refuse until
/// relationships in trees are supported.
final class Keeper: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: .none) var favorite: Animal?
}
