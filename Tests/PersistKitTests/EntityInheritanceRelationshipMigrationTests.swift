import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

// Version 1: the Animal tree without weight, and a Keeper with a favorite and pets only.
private class ZooAnimalV1: ManagedObject {
    override class var entityName: String { "Animal" }
    override class var isAbstractEntity: Bool { true }
    @Attribute var name = ""
    @Attribute var born: Date?
}

private class ZooDogV1: ZooAnimalV1 {
    override class var entityName: String { "Dog" }
    @Attribute var breed = ""
    @Attribute var goodBoy = true
}

private final class ZooPuppyV1: ZooDogV1 {
    override class var entityName: String { "Puppy" }
    @Attribute var trained = false
}

private final class ZooCatV1: ZooAnimalV1 {
    override class var entityName: String { "Cat" }
    @Attribute var lives: Int? = 9
}

private final class ZooKeeperV1: ManagedObject {
    override class var entityName: String { "Keeper" }
    @Attribute var name = ""
    @Relationship(inverse: .none) var favorite: ZooAnimalV1?
    @Relationship(inverse: .none, deleteRule: .cascade) var pets: Set<ZooAnimalV1>
}

/// Inferred migrations of a model whose plain entity has relationships into a tree: the tree's
/// table is rebuilt (an attribute added to its root) and the plain entity gains a relationship;
/// the links survive, each related object read as its row's entity.
final class EntityInheritanceRelationshipMigrationTests: XCTestCase {
    func testLinksIntoATreeSurviveAMigrationOfBoth() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("zoo.sqlite")
        let old = try ManagedObjectModel(entities: [ZooAnimalV1.self, ZooDogV1.self, ZooPuppyV1.self, ZooCatV1.self, ZooKeeperV1.self],
                                         version: 1)
        do {
            let context = try PersistentContainer(model: old, store: .sqlite(url)).newContext()
            let rex = ZooDogV1(context: context)
            rex.name = "Rex"
            let bit = ZooPuppyV1(context: context)
            bit.name = "Bit"
            let tom = ZooCatV1(context: context)
            tom.name = "Tom"
            let ann = ZooKeeperV1(context: context)
            ann.name = "Ann"
            ann.favorite = bit
            ann.pets = [rex, tom]
            try context.save()
        }
        let new = try ManagedObjectModel(entities: [Animal.self, Dog.self, Puppy.self, Cat.self, Keeper.self], version: 2)
        let container = try openMigrating(url, to: new, from: [old])
        try assertSchemaMatchesFreshStore(container)
        let context = container.newContext()
        let ann = try XCTUnwrap(context.fetch(FetchRequest<Keeper>()).first)
        XCTAssertTrue(ann.favorite is Puppy)
        XCTAssertEqual(ann.favorite?.name, "Bit")
        XCTAssertEqual(ann.pets.map { "\($0.name):\(type(of: $0))" }.sorted(), ["Rex:Dog", "Tom:Cat"])
        XCTAssertEqual(ann.queue.count, 0)
        // The migrated store keeps its rules: deleting Bit clears the favorite; deleting Ann
        // deletes her pets.
        context.delete(try XCTUnwrap(ann.favorite))
        try context.save()
        context.delete(ann)
        try context.save()
        let fresh = container.newContext()
        XCTAssertEqual(try fresh.count(for: FetchRequest<Animal>()), 0)
        XCTAssertEqual(try StoreInspector(url: url).schemaProblems(against: new), [])
    }
}
