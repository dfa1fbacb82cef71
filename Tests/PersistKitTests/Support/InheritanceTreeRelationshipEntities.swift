import Foundation
@testable import PersistKit

/// An abstract root whose relationships every entity of its tree inherits: a to-one whose
/// inverse is outside the tree (`guardian`), a self-relationship (`mother`/`children`), an
/// ordered to-many whose inverse is a to-one outside (`toys`) and a many-to-many with an
/// entity outside (`vets`).
class Creature: ManagedObject {
    override class var isAbstractEntity: Bool { true }
    @Attribute var name = ""
    @Attribute var weight = 0.0
    @Relationship var guardian: Guardian?
    @Relationship(inverse: \Creature.children) var mother: Creature?
    @Relationship(deleteRule: .cascade) var children: Set<Creature>
    @Relationship(deleteRule: .cascade) var toys: [Toy]
    @Relationship var vets: Set<Vet>
}

/// A concrete sub-entity declaring relationships of its own: a to-one whose inverse holds
/// Hounds only (`walker`), and a many-to-many within the sub-entity (`pack`/`packOf`).
class Hound: Creature {
    @Attribute var breed = ""
    @Relationship var walker: Walker?
    @Relationship(inverse: \Hound.packOf) var pack: Set<Hound>
    @Relationship var packOf: Set<Hound>
}

/// A sub-entity of ``Hound``: it inherits both levels' relationships.
final class Pup: Hound {
    @Attribute var trained = false
}

/// A sibling of ``Hound`` with an attribute of its own (in the slot Hound's `breed` takes).
final class Kitty: Creature {
    @Attribute var lives = 9
}

/// Outside the tree: the inverse of `Creature.guardian`.
final class Guardian: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: \Creature.guardian) var creatures: Set<Creature>
}

/// Outside the tree: the inverse of `Hound.walker`, which denies deleting a walker of hounds.
final class Walker: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: \Hound.walker, deleteRule: .deny) var hounds: Set<Hound>
}

/// Outside the tree: the inverse of the ordered `Creature.toys`.
final class Toy: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: \Creature.toys) var holder: Creature?
}

/// Outside the tree: the other side of the many-to-many `Creature.vets`.
final class Vet: ManagedObject {
    @Attribute var name = ""
    @Relationship(inverse: \Creature.vets) var patients: Set<Creature>
}

/// The entities of the tree with relationships declared in it, and those outside it they link.
let treeRelationshipEntities: [ManagedObject.Type] = [Creature.self, Hound.self, Pup.self, Kitty.self,
                                                      Guardian.self, Walker.self, Toy.self, Vet.self]
