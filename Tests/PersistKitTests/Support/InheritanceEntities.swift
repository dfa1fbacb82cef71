import Foundation
import PersistKitTestSupport
@testable import PersistKit

/// A new `Dog`, `Puppy` or `Cat`, picked at random, for the generated tests.
func insertRandomAnimal(named name: String, weight: Double, into context: ManagedObjectContext,
                        using random: inout SeededGenerator) -> Animal {
    let kinds: [Animal.Type] = [Dog.self, Puppy.self, Cat.self]
    return insertAnimal(kinds[Int.random(in: 0..<3, using: &random)], named: name, weight: weight, into: context)
}

/// A new `Dog`, `Puppy` or `Cat`.
@discardableResult
func insertAnimal(_ kind: Animal.Type, named name: String, weight: Double, into context: ManagedObjectContext) -> Animal {
    let animal: Animal
    if kind == Puppy.self { animal = Puppy(context: context) } else if kind == Cat.self { animal = Cat(context: context) } else { animal = Dog(context: context) }
    animal.name = name
    animal.weight = weight
    return animal
}

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

/// An entity outside the tree with one-way relationships into it: a to-one and a to-many to
/// the abstract root (the to-many cascades), and an ordered to-many to a sub-entity that has
/// one of its own.
final class Keeper: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: .none) var favorite: Animal?
    @Relationship(inverse: .none, deleteRule: .cascade) var pets: Set<Animal>
    @Relationship(inverse: .none) var queue: [Dog]
}

/// An entity outside the tree whose to-ones into it deny and cascade.
final class Warden: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: .none, deleteRule: .deny) var ward: Animal?
    @Relationship(inverse: .none, deleteRule: .cascade) var charge: Dog?
}

/// A sub-entity declaring a relationship, which trees refuse until relationships declared in
/// them are supported.
final class Parrot: Animal {
    @Relationship(inverse: .none) var perch: Keeper?
}

/// An abstract root with a uniqueness constraint, which spans the whole tree: no two members,
/// whatever their entity, share a tag.
class Member: ManagedObject {
    override class var isAbstractEntity: Bool { true }
    @Attribute(.unique) var tag = ""
    @Attribute var name = ""
    @Attribute var score = 0
}

/// A sub-entity adding a constraint of its own: a name is unique among Players (Captains
/// included), not among Coaches.
class Player: Member {
    override class var uniquenessConstraints: [[String]] { [["name"]] }
    @Attribute var position: String?
}

/// A sub-entity of ``Player``: bound by both constraints.
final class Captain: Player {
    @Attribute var armband = true
}

/// A sub-entity bound by its parent's constraint only.
final class Coach: Member {
    @Attribute var license = ""
}

/// The model of the uniqueness-in-a-tree tests: the ``Member`` tree and a plain entity.
let memberTreeEntities: [ManagedObject.Type] = [Member.self, Player.self, Captain.self, Coach.self, TestTask.self]

/// A new member of the given concrete entity (`Player`, `Captain` or `Coach`).
@discardableResult
func insertMember(_ kind: Member.Type, tag: String, name: String, score: Int = 0, into context: ManagedObjectContext) -> Member {
    let member: Member
    if kind == Captain.self { member = Captain(context: context) } else if kind == Coach.self { member = Coach(context: context) } else { member = Player(context: context) }
    member.tag = tag
    member.name = name
    member.score = score
    return member
}
