import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

// Version 1 of the `Creature` tree: the parent declares `guardian` and `mother`/`children`
// only, `Hound` none; `Walker`, `Toy` and `Vet` do not exist yet.
private class CreatureV1: ManagedObject {
    override class var entityName: String { "Creature" }
    override class var isAbstractEntity: Bool { true }
    @Attribute var name = ""
    @Attribute var weight = 0.0
    @Relationship var guardian: GuardianV1?
    @Relationship(inverse: \CreatureV1.children) var mother: CreatureV1?
    @Relationship(deleteRule: .cascade) var children: Set<CreatureV1>
}

private class HoundV1: CreatureV1 {
    override class var entityName: String { "Hound" }
    @Attribute var breed = ""
}

private final class PupV1: HoundV1 {
    override class var entityName: String { "Pup" }
    @Attribute var trained = false
}

private final class KittyV1: CreatureV1 {
    override class var entityName: String { "Kitty" }
    @Attribute var lives = 9
}

private final class GuardianV1: ManagedObject {
    override class var entityName: String { "Guardian" }
    @Attribute var name = ""
    @Relationship(inverse: \CreatureV1.guardian) var creatures: Set<CreatureV1>
}

/// An inferred migration adding relationships to a tree whose entities declare some: to the
/// parent (`toys`, `vets`) and to a sub-entity (`walker`, `pack`); the tree's table gains their
/// columns, the join tables are made, and the links stored before survive.
final class EntityInheritanceTreeRelationshipMigrationTests: XCTestCase {
    func testRelationshipsAddedToTheParentAndASubentityAreInferred() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("creatures.sqlite")
        let old = try ManagedObjectModel(entities: [CreatureV1.self, HoundV1.self, PupV1.self, KittyV1.self, GuardianV1.self], version: 1)
        do {
            let context = try PersistentContainer(model: old, store: .sqlite(url)).newContext()
            let ann = GuardianV1(context: context)
            ann.name = "Ann"
            let rex = HoundV1(context: context)
            rex.name = "Rex"
            rex.guardian = ann
            let bit = PupV1(context: context)
            bit.name = "Bit"
            bit.mother = rex
            let tom = KittyV1(context: context)
            tom.name = "Tom"
            ann.creatures.insert(tom)
            try context.save()
        }
        let new = try ManagedObjectModel(entities: treeRelationshipEntities, version: 2)
        let container = try openMigrating(url, to: new, from: [old])
        try assertSchemaMatchesFreshStore(container)
        let context = container.newContext()
        let ann = try XCTUnwrap(context.fetch(FetchRequest<Guardian>()).first)
        XCTAssertEqual(ann.creatures.map { "\($0.name):\(type(of: $0))" }.sorted(), ["Rex:Hound", "Tom:Kitty"])
        let bit = try XCTUnwrap(context.fetch(FetchRequest<Pup>()).first)
        XCTAssertEqual(bit.mother?.name, "Rex")
        XCTAssertNil(bit.walker)
        XCTAssertEqual(bit.vets.count, 0)
        // The added relationships work on the migrated rows.
        let wes = Walker(context: context)
        wes.name = "Wes"
        bit.walker = wes
        let vo = Vet(context: context)
        vo.name = "Vo"
        vo.patients = Set(ann.creatures)
        let ball = Toy(context: context)
        ball.name = "ball"
        bit.toys = [ball]
        bit.pack = [try XCTUnwrap(bit.mother as? Hound)]
        try context.save()
        let fresh = container.newContext()
        let freshBit = try XCTUnwrap(fresh.fetch(FetchRequest<Pup>()).first)
        XCTAssertEqual(freshBit.walker?.name, "Wes")
        XCTAssertEqual(freshBit.toys.map(\.name), ["ball"])
        XCTAssertEqual(freshBit.pack.map(\.name), ["Rex"])
        XCTAssertEqual(try XCTUnwrap(fresh.fetch(FetchRequest<Vet>()).first).patients.map(\.name).sorted(), ["Rex", "Tom"])
        XCTAssertEqual(try StoreInspector(url: url).schemaProblems(against: new), [])
    }
}
