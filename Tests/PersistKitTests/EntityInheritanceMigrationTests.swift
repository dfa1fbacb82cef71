import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

// Version 1 of the Animal tree (see InheritanceEntities): no weight, Dogs without goodBoy, no
// Puppy; and a Hound where version 2 has a Dog, with a coat where a Dog has a breed.
private class AnimalV1: ManagedObject {
    override class var entityName: String { "Animal" }
    override class var isAbstractEntity: Bool { true }
    @Attribute var name = ""
    @Attribute var born: Date?
}

private final class DogV1: AnimalV1 {
    override class var entityName: String { "Dog" }
    @Attribute var breed = ""
}

private final class CatV1: AnimalV1 {
    override class var entityName: String { "Cat" }
    @Attribute var lives: Int? = 9
}

private final class HoundV1: AnimalV1 {
    override class var entityName: String { "Hound" }
    @Attribute var coat = ""
}

/// Version 2's Dog, which version 1 called Hound, its breed the Hound's coat.
private final class RenamedDog: Animal {
    override class var entityName: String { "Dog" }
    override class var originalEntityName: String? { "Hound" }
    @Attribute(originalName: "coat") var breed = ""
}

/// A plain entity in version 1 that version 2 makes the root of a tree.
private final class VehicleV1: ManagedObject {
    override class var entityName: String { "Vehicle" }
    @Attribute var label = ""
    @Attribute var wheels = 4
}

/// Inferred migrations of models with inheritance trees: each store is written by version 1's
/// code, migrated, and read back as objects of their classes; the migrated store has the
/// schema a new store of version 2 has.
final class EntityInheritanceMigrationTests: XCTestCase {
    private var directory = TemporaryDirectory()
    override func setUp() { directory = TemporaryDirectory() }

    /// Writes version 1's store, then opens it with version 2, migrating.
    private func migrate(_ version1: [ManagedObject.Type], to version2: [ManagedObject.Type],
                         write: (ManagedObjectContext) throws -> Void) throws -> PersistentContainer {
        let url = directory.file("zoo.sqlite")
        let old = try ManagedObjectModel(entities: version1, version: 1)
        let context = try PersistentContainer(model: old, store: .sqlite(url)).newContext()
        try write(context)
        try context.save()
        let container = try openMigrating(url, to: try ManagedObjectModel(entities: version2, version: 2), from: [old])
        XCTAssertEqual(container.migrationReport?.fromVersion, 1)
        try assertSchemaMatchesFreshStore(container)
        return container
    }

    private func describe(_ objects: [ManagedObject]) -> [String] {
        objects.map { "\(($0 as? Animal)?.name ?? ($0 as? Vehicle)?.label ?? "?"):\(type(of: $0))" }
    }

    func testAddingASubentityAndAttributesToTheParentAndASubentityIsInferred() throws {
        let version1: [ManagedObject.Type] = [AnimalV1.self, DogV1.self, CatV1.self]
        let version2: [ManagedObject.Type] = [Animal.self, Dog.self, Puppy.self, Cat.self]
        let changes = try MigrationDescription.changes(from: ManagedObjectModel(entities: version1, version: 1),
                                                       to: ManagedObjectModel(entities: version2, version: 2))
        XCTAssertEqual(changes.count, 3, "\(changes)")
        XCTAssertTrue(changes.contains { $0.hasPrefix("adds attribute Animal.weight (double)") }, "\(changes)")
        XCTAssertTrue(changes.contains { $0.hasPrefix("adds attribute Dog.goodBoy (boolean)") }, "\(changes)")
        XCTAssertTrue(changes.contains("adds entity Puppy (a sub-entity of Dog)"), "\(changes)")
        let container = try migrate(version1, to: version2) { context in
            let rex = DogV1(context: context)
            rex.name = "Rex"
            rex.breed = "boxer"
            let tom = CatV1(context: context)
            tom.name = "Tom"
            tom.lives = 7
        }
        let context = container.newContext()
        let animals = try context.fetch(FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.name)]))
        XCTAssertEqual(describe(animals), ["Rex:Dog", "Tom:Cat"])
        let rex = try XCTUnwrap(animals.first as? Dog)
        XCTAssertEqual([rex.breed, "\(rex.goodBoy)", "\(rex.weight)"], ["boxer", "true", "0.0"])
        XCTAssertEqual((animals.last as? Cat)?.lives, 7)
        // The Dog's new default went to Dogs only: a Cat's row has no goodBoy.
        XCTAssertEqual(try rows(container, "SELECT name, goodBoy, _entity FROM Animal ORDER BY _pk"),
                       [[.text("Rex"), .integer(1), .text("Dog")], [.text("Tom"), .null, .text("Cat")]])
        let bit = Puppy(context: context)
        bit.name = "Bit"
        bit.trained = true
        try context.save()
        XCTAssertEqual(describe(try container.newContext().fetch(FetchRequest<Dog>(sortBy: [FetchSortDescriptor(\.name)]))),
                       ["Bit:Puppy", "Rex:Dog"])
    }

    func testAPlainEntityBecomingARootLabelsItsRowsWithItsName() throws {
        let container = try migrate([VehicleV1.self], to: [Vehicle.self, Truck.self]) { context in
            for label in ["A", "B"] { VehicleV1(context: context).label = label }
        }
        XCTAssertEqual(try rows(container, "SELECT label, _entity FROM Vehicle ORDER BY _pk"),
                       [[.text("A"), .text("Vehicle")], [.text("B"), .text("Vehicle")]])
        let context = container.newContext()
        Truck(context: context).label = "C"
        try context.save()
        let vehicles = try container.newContext().fetch(FetchRequest<Vehicle>(sortBy: [FetchSortDescriptor(\.label)]))
        XCTAssertEqual(describe(vehicles), ["A:Vehicle", "B:Vehicle", "C:Truck"])
        XCTAssertEqual(vehicles.map(\.objectID.primaryKey), [1, 2, 3], "the tree's keys continue the table's")

        // Removing the only sub-entity leaves a plain entity: the sub-entity's objects go.
        let url = directory.file("zoo.sqlite")
        let version2 = try ManagedObjectModel(entities: [Vehicle.self, Truck.self], version: 2)
        let version3 = try ManagedObjectModel(entities: [Vehicle.self], version: 3)
        XCTAssertEqual(try MigrationDescription.changes(from: version2, to: version3),
                       ["removes entity Truck (its objects are deleted)"])
        let plain = try openMigrating(url, to: version3, from: [try ManagedObjectModel(entities: [VehicleV1.self], version: 1), version2])
        try assertSchemaMatchesFreshStore(plain)
        XCTAssertEqual(try rows(plain, "SELECT label FROM Vehicle ORDER BY _pk"), [[.text("A")], [.text("B")]])
    }

    func testARemovedSubentitysObjectsAreDeleted() throws {
        let version1: [ManagedObject.Type] = [Animal.self, Dog.self, Puppy.self, Cat.self]
        XCTAssertTrue(try MigrationDescription.changes(from: ManagedObjectModel(entities: version1, version: 1),
                                                       to: ManagedObjectModel(entities: [Animal.self, Dog.self, Cat.self], version: 2))
            .contains("removes entity Puppy (its objects are deleted)"))
        let container = try migrate(version1, to: [Animal.self, Dog.self, Cat.self]) { context in
            Dog(context: context).name = "Rex"
            Puppy(context: context).name = "Bit"
            Cat(context: context).name = "Tom"
        }
        XCTAssertEqual(describe(try container.newContext().fetch(FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.name)]))),
                       ["Rex:Dog", "Tom:Cat"])
        XCTAssertEqual(try rows(container, "SELECT count(*) FROM Animal WHERE _entity = 'Puppy'"), [[.integer(0)]])
    }

    func testRenamingAnEntityOfATreeAndAnAttributeRewritesTheirRows() throws {
        let container = try migrate([AnimalV1.self, HoundV1.self, CatV1.self], to: [Animal.self, RenamedDog.self, Cat.self]) { context in
            let rex = HoundV1(context: context)
            rex.name = "Rex"
            rex.coat = "brindle"
            CatV1(context: context).name = "Tom"
        }
        let animals = try container.newContext().fetch(FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.name)]))
        XCTAssertEqual(describe(animals), ["Rex:RenamedDog", "Tom:Cat"])
        XCTAssertEqual((animals.first as? RenamedDog)?.breed, "brindle")
        XCTAssertEqual(animals.first?.objectID.entityName, "Dog")
        XCTAssertEqual(try rows(container, "SELECT _entity FROM Animal ORDER BY _pk"), [[.text("Dog")], [.text("Cat")]])
    }

    func testASubentityMadeRequiredWithoutADefaultFailsNamingItsObjects() throws {
        let url = directory.file("zoo.sqlite")
        let version1 = try documentModel(1, [
            entity("Animal", [attribute("name", "string")]),
            entity("Dog", [attribute("name", "string"), attribute("breed", "string", optional: true)]).parent("Animal"),
            entity("Cat", [attribute("name", "string")]).parent("Animal"),
        ])
        let context = try PersistentContainer(model: version1, store: .sqlite(url)).newContext()
        try insert("Dog", ["name": "Rex"], into: context)
        try insert("Cat", ["name": "Tom"], into: context)
        try context.save()
        let version2 = try documentModel(2, [
            entity("Animal", [attribute("name", "string")]),
            entity("Dog", [attribute("name", "string"), attribute("breed", "string")]).parent("Animal"),
            entity("Cat", [attribute("name", "string")]).parent("Animal"),
        ])
        expectError(try openMigrating(url, to: version2, from: [version1]), .validation) { error in
            XCTAssertTrue(error.message.contains("Cannot migrate Dog.breed to a required attribute: 1 Dog object has no value for it"),
                          error.message)
            XCTAssertEqual(error.objectIDs.map(\.entityName), ["Dog"])
        }
        // Nothing changed: version 1 still opens its store, and a default makes the migration work.
        XCTAssertEqual(try PersistentContainer(model: version1, store: .sqlite(url)).newContext()
            .count(for: FetchRequest<ManagedObject>(entityName: "Animal")), 2)
        let withDefault = try documentModel(2, [
            entity("Animal", [attribute("name", "string")]),
            entity("Dog", [attribute("name", "string"), attribute("breed", "string", default: ["text": "mixed"])]).parent("Animal"),
            entity("Cat", [attribute("name", "string")]).parent("Animal"),
        ])
        let container = try openMigrating(url, to: withDefault, from: [version1])
        XCTAssertEqual(try rows(container, "SELECT name, breed FROM Animal ORDER BY _pk"),
                       [[.text("Rex"), .text("mixed")], [.text("Tom"), .null]])
    }

    func testACustomStageReadsAndWritesTheTreeOnBothSides() throws {
        let url = directory.file("zoo.sqlite")
        let version1 = try ManagedObjectModel(entities: [AnimalV1.self, DogV1.self, CatV1.self], version: 1)
        let context = try PersistentContainer(model: version1, store: .sqlite(url)).newContext()
        for (name, breed) in [("Rex", "boxer"), ("Ada", "collie")] {
            let dog = DogV1(context: context)
            dog.name = name
            dog.breed = breed
        }
        CatV1(context: context).name = "Tom"
        try context.save()
        let stage = MigrationStage.custom(from: 1, to: 2, willMigrate: { old in
            // The old model: a fetch of the parent returns version 1's classes.
            let animals = try old.fetch(FetchRequest<ManagedObject>(entityName: "Animal", sortBy: [FetchSortDescriptor(key: "name")]))
            XCTAssertEqual(animals.map { "\(type(of: $0))" }, ["DogV1", "DogV1", "CatV1"])
        }, didMigrate: { new in
            for dog in try new.fetch(FetchRequest<Dog>(predicate: \.breed == "boxer")) { dog.goodBoy = false }
        })
        let container = try openMigrating(url, to: try ManagedObjectModel(entities: [Animal.self, Dog.self, Puppy.self, Cat.self], version: 2),
                                          from: [version1], stages: [stage])
        let dogs = try container.newContext().fetch(FetchRequest<Dog>(sortBy: [FetchSortDescriptor(\.name)]))
        XCTAssertEqual(dogs.map { "\($0.name):\($0.goodBoy)" }, ["Ada:true", "Rex:false"])
    }

    func testAnEntityCannotJoinATreeByAnInferredMigration() throws {
        let old = try ManagedObjectModel(entities: [VehicleV1.self, Dog.self], version: 1)
        let new = try ManagedObjectModel(entities: [Animal.self, Dog.self, Vehicle.self], version: 2)
        expectError(try InferredStagePlanner.plan(from: old, to: new), .incompatibleModel) { error in
            XCTAssertTrue(error.message.contains("Dog's objects are in the table of Dog in version 1, and would be in that of Animal"),
                          error.message)
        }
    }
}

private extension Dictionary where Key == String, Value == Any {
    /// The entity, as a sub-entity of `name` in a model document.
    func parent(_ name: String) -> [String: Any] {
        var result = self
        result["parent"] = name
        return result
    }
}
