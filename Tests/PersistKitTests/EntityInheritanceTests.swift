import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Entity inheritance: an abstract `Animal` with `Dog` (and its `Puppy`) and `Cat`, a concrete
/// `Vehicle` with `Truck`; one table per tree, fetches of a parent returning the sub-entities'
/// objects as their own classes, in SQL and with pending changes in memory.
final class EntityInheritanceTests: XCTestCase {
    private let entities: [ManagedObject.Type] = [Animal.self, Dog.self, Puppy.self, Cat.self, Vehicle.self, Truck.self, TestTask.self]

    private func forEachStore(file: StaticString = #filePath, line: UInt = #line,
                              _ body: (PersistentContainer, StoreKind) throws -> Void) {
        PersistKitTests.forEachStore(entities: entities, file: file, line: line, body)
    }

    /// Rex (dog, 30), Tom (cat, 4), Bit (puppy, 3), Ada (dog, 25), Kit (cat, 5, 7 lives).
    private func seed(_ context: ManagedObjectContext) throws {
        func dog(_ name: String, _ weight: Double, _ breed: String) {
            let dog = Dog(context: context)
            dog.name = name
            dog.weight = weight
            dog.breed = breed
        }
        dog("Rex", 30, "boxer")
        let tom = Cat(context: context)
        tom.name = "Tom"
        tom.weight = 4
        let bit = Puppy(context: context)
        bit.name = "Bit"
        bit.weight = 3
        bit.breed = "pug"
        dog("Ada", 25, "collie")
        let kit = Cat(context: context)
        kit.name = "Kit"
        kit.weight = 5
        kit.lives = 7
        try context.save()
    }

    private func describe(_ animals: [Animal]) -> [String] {
        animals.map { "\($0.name):\(type(of: $0))" }
    }

    func testTheModelPlacesEachEntityInItsTree() throws {
        let model = try ManagedObjectModel(entities: entities)
        let animal = try XCTUnwrap(model.entity(named: "Animal"))
        XCTAssertTrue(animal.isAbstract)
        XCTAssertNil(animal.superentityName)
        XCTAssertEqual(animal.subentityNames, ["Dog", "Cat"])
        XCTAssertEqual(model.entity(named: "Puppy")?.superentityName, "Dog")
        XCTAssertEqual(model.entity(named: "Puppy")?.isAbstract, false)
        XCTAssertEqual(model.entity(named: "Dog")?.isAbstract, false, "Dog inherits the class property, not the abstractness")
        XCTAssertEqual(model.entity(named: "Puppy")?.attributeNames, ["name", "born", "weight", "breed", "goodBoy", "trained"])
        XCTAssertEqual(model.entity(named: "Vehicle")?.isAbstract, false)
        XCTAssertEqual(model.entity(named: "Task")?.superentityName, nil)
        XCTAssertEqual(model.entity(named: "Task")?.subentityNames, [])

        // The document keeps the tree; a model loaded from it is the same model.
        let loaded = try ManagedObjectModel(document: model.document)
        XCTAssertEqual(loaded.versionHash, model.versionHash)
        XCTAssertEqual(loaded.entity(named: "Animal")?.isAbstract, true)
        XCTAssertEqual(loaded.entity(named: "Puppy")?.superentityName, "Dog")
        XCTAssertEqual(loaded.entity(named: "Animal")?.subentityNames, ["Dog", "Cat"])

        // Without the parent in the model, a subclass is an entity of its own (as before).
        let alone = try ManagedObjectModel(entities: [Truck.self])
        XCTAssertNil(alone.entity(named: "Truck")?.superentityName)
        XCTAssertNotEqual(alone.versionHash, try ManagedObjectModel(entities: [Vehicle.self, Truck.self]).versionHash)
    }

    func testOneTablePerTreeAndPlainEntitiesKeepTheirTables() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("tree.sqlite")
        let container = try PersistentContainer(model: try ManagedObjectModel(entities: entities), store: .sqlite(url))
        try seed(container.newContext())
        let connection = try SQLiteConnection(path: url.path, configuration: .init())
        let tables = Set(try names(connection, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'"))
        XCTAssertEqual(tables, ["Animal", "Vehicle", "Task"])
        XCTAssertEqual(try names(connection, "SELECT name FROM pragma_table_info('Animal')"),
                       ["_pk", "_version", "name", "born", "weight", "breed", "goodBoy", "trained", "lives", "_entity"])
        // Sub-entities' columns are nullable: a Cat has no breed. Their required-ness is validation's.
        XCTAssertEqual(try names(connection, "SELECT name FROM pragma_table_info('Animal') WHERE \"notnull\" = 1"),
                       ["_version", "name", "weight", "_entity"])
        XCTAssertEqual(try names(connection, "SELECT _entity || ':' || name || ':' || coalesce(breed, '-') FROM Animal ORDER BY _pk"),
                       ["Dog:Rex:boxer", "Cat:Tom:-", "Puppy:Bit:pug", "Dog:Ada:collie", "Cat:Kit:-"])
        // The entities of a tree share their keys.
        XCTAssertEqual(try names(connection, "SELECT _pk FROM Animal ORDER BY _pk"), ["1", "2", "3", "4", "5"])
        // An entity outside any tree has exactly the table it always had.
        XCTAssertEqual(try names(connection, "SELECT sql FROM sqlite_master WHERE name = 'Task'"),
                       [SchemaSQL.createTable(for: try XCTUnwrap(container.model.entity(named: "Task")))])
        XCTAssertFalse(try names(connection, "SELECT name FROM pragma_table_info('Task')").contains("_entity"))
    }

    func testAFetchOfTheParentReturnsEachObjectAsItsOwnClass() {
        forEachStore { container, kind in
            try seed(container.newContext())
            let context = container.newContext()   // nothing registered: every object comes from its row
            let byName = FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.name)])
            XCTAssertEqual(describe(try context.fetch(byName)), ["Ada:Dog", "Bit:Puppy", "Kit:Cat", "Rex:Dog", "Tom:Cat"], "\(kind)")
            let dogs = try context.fetch(FetchRequest<Dog>(sortBy: [FetchSortDescriptor(\.weight)]))
            XCTAssertEqual(dogs.map(\.name), ["Bit", "Ada", "Rex"])
            XCTAssertEqual(dogs.map(\.breed), ["pug", "collie", "boxer"])
            XCTAssertEqual(try context.fetch(FetchRequest<Cat>(sortBy: [FetchSortDescriptor(\.name)])).map(\.lives), [7, 9])
            XCTAssertEqual(try context.fetch(FetchRequest<Puppy>()).map(\.name), ["Bit"])
            XCTAssertEqual(try context.fetch(byName).map(\.objectID.entityName), ["Dog", "Puppy", "Cat", "Dog", "Cat"])

            var onlyDogs = FetchRequest<Dog>(sortBy: [FetchSortDescriptor(\.name)])
            onlyDogs.includesSubentities = false
            XCTAssertEqual(try context.fetch(onlyDogs).map(\.name), ["Ada", "Rex"])
            var onlyAnimals = byName
            onlyAnimals.includesSubentities = false
            XCTAssertEqual(try context.fetch(onlyAnimals).count, 0, "an abstract entity has no objects of its own")

            // Predicates and sorts on the parent's attributes, limits and counts across the tree.
            var heavy = FetchRequest<Animal>(predicate: \.weight >= 4.5, sortBy: [FetchSortDescriptor(\.weight, order: .reverse)])
            XCTAssertEqual(describe(try context.fetch(heavy)), ["Rex:Dog", "Ada:Dog", "Kit:Cat"])
            XCTAssertEqual(try context.count(for: heavy), 3)
            heavy.fetchOffset = 1
            heavy.fetchLimit = 1
            XCTAssertEqual(describe(try context.fetch(heavy)), ["Ada:Dog"])
            XCTAssertEqual(try context.count(for: heavy), 1)
            XCTAssertEqual(try context.count(for: FetchRequest<Animal>()), 5)
            XCTAssertEqual(try context.count(for: onlyDogs), 2)
            let format = FetchRequest<Animal>(predicate: try FetchPredicate(format: "name BEGINSWITH %@", "K"))
            XCTAssertEqual(describe(try context.fetch(format)), ["Kit:Cat"])
            let foundation = FetchRequest<Animal>(predicate: #Predicate<Animal> { $0.weight < 4.5 },
                                                  sortBy: [SortDescriptor(\.name)])
            XCTAssertEqual(describe(try context.fetch(foundation)), ["Bit:Puppy", "Tom:Cat"])
            XCTAssertEqual(try context.fetchObjectIDs(FetchRequest<Animal>(predicate: \.name == "Tom")).map(\.entityName), ["Cat"])

            // The same object whichever entity's fetch reads it.
            let rex = try XCTUnwrap(context.fetch(FetchRequest<Dog>(predicate: \.name == "Rex")).first)
            XCTAssertTrue(try context.fetch(FetchRequest<Animal>(predicate: \.name == "Rex")).first === rex)
            XCTAssertTrue(try context.existingObject(with: rex.objectID) === rex)
        }
    }

    func testPendingChangesJoinAFetchOfTheParentInMemory() {
        forEachStore { container, kind in
            let context = container.newContext()
            try seed(context)
            let rex = try XCTUnwrap(context.fetch(FetchRequest<Dog>(predicate: \.name == "Rex")).first)
            rex.weight = 1           // moves to the front
            let kit = try XCTUnwrap(context.fetch(FetchRequest<Cat>(predicate: \.name == "Kit")).first)
            context.delete(kit)
            let new = Puppy(context: context)
            new.name = "Zed"
            new.weight = 4.2
            let request = FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.weight)])
            XCTAssertEqual(describe(try context.fetch(request)), ["Rex:Dog", "Bit:Puppy", "Tom:Cat", "Zed:Puppy", "Ada:Dog"], "\(kind)")
            var light = FetchRequest<Animal>(predicate: \.weight < 4.1, sortBy: [FetchSortDescriptor(\.name)])
            XCTAssertEqual(describe(try context.fetch(light)), ["Bit:Puppy", "Rex:Dog", "Tom:Cat"])
            XCTAssertEqual(try context.count(for: light), 3)
            light.fetchLimit = 2
            XCTAssertEqual(describe(try context.fetch(light)), ["Bit:Puppy", "Rex:Dog"])
            XCTAssertEqual(try context.fetch(FetchRequest<Dog>(sortBy: [FetchSortDescriptor(\.name)])).map(\.name), ["Ada", "Bit", "Rex", "Zed"])
            try context.save()
            let fresh = container.newContext()
            XCTAssertEqual(describe(try fresh.fetch(request)), ["Rex:Dog", "Bit:Puppy", "Tom:Cat", "Zed:Puppy", "Ada:Dog"])
            XCTAssertEqual(try fresh.fetch(FetchRequest<Puppy>(predicate: \.name == "Zed")).first?.objectID.key, 6,
                           "keys continue across the tree")
        }
    }

    func testAConcreteParentHasObjectsOfItsOwn() {
        forEachStore { container, _ in
            let context = container.newContext()
            let car = Vehicle(context: context)
            car.label = "car"
            let truck = Truck(context: context)
            truck.label = "truck"
            truck.wheels = 6
            truck.load = 2.5
            try context.save()
            let fresh = container.newContext()
            let all = try fresh.fetch(FetchRequest<Vehicle>(sortBy: [FetchSortDescriptor(\.label)]))
            XCTAssertEqual(all.map { "\($0.label):\(type(of: $0))" }, ["car:Vehicle", "truck:Truck"])
            XCTAssertEqual((all.last as? Truck)?.load, 2.5)
            var own = FetchRequest<Vehicle>()
            own.includesSubentities = false
            XCTAssertEqual(try fresh.fetch(own).map(\.label), ["car"])
            XCTAssertEqual(try fresh.count(for: own), 1)
            let byName = FetchRequest<ManagedObject>(entityName: "Vehicle", sortBy: [FetchSortDescriptor(key: "label")])
            XCTAssertEqual(try fresh.fetch(byName).map(\.objectID.entityName), ["Vehicle", "Truck"])
        }
    }

    func testChangesAndDeletesOfSubentityObjectsAreSaved() {
        forEachStore { container, _ in
            try seed(container.newContext())
            let context = container.newContext()
            let animals = try context.fetch(FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.name)]))
            (animals[0] as? Dog)?.breed = "beagle"     // Ada
            animals[2].weight = 6                      // Kit
            context.delete(animals[4])                 // Tom
            try context.save()
            let fresh = container.newContext()
            let after = try fresh.fetch(FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.name)]))
            XCTAssertEqual(describe(after), ["Ada:Dog", "Bit:Puppy", "Kit:Cat", "Rex:Dog"])
            XCTAssertEqual((after[0] as? Dog)?.breed, "beagle")
            XCTAssertEqual(after[2].weight, 6)
        }
    }

    func testAnAbstractEntityCannotBeInserted() {
        forEachStore { container, _ in
            let context = container.newContext()
            let animal = Animal(context: context)
            animal.name = "nobody"
            expectError(try context.save(), .validation) { error in
                XCTAssertTrue(error.message.contains("Animal is abstract and cannot be inserted: insert one of its sub-entities (Dog, Cat)"),
                              error.message)
            }
            XCTAssertEqual(try container.newContext().count(for: FetchRequest<Animal>()), 0, "nothing was written")
        }
    }

    func testWhatInheritanceDoesNotSupportYetIsRefusedClearly() throws {
        let container = try PersistentContainer(model: try ManagedObjectModel(entities: entities), store: .inMemory)
        let context = container.newContext()
        // Batch requests work on a tree (EntityInheritanceBatchTests); an abstract entity takes no batch insert.
        expectError(try context.execute(BatchInsertRequest<Animal>(objects: [["name": "nobody"]])), .invalidRequest) { error in
            XCTAssertTrue(error.message.contains("Animal, which is abstract"), error.message)
        }
        // A sub-entity without sub-entities of its own is an entity like any other for a controller.
        let cats = FetchedResultsController(fetchRequest: FetchRequest<Cat>(sortBy: [FetchSortDescriptor(\.name)]), context: context)
        try cats.performFetch()
        let cat = Cat(context: context)
        cat.name = "Felix"
        try context.save()
        XCTAssertEqual(cats.fetchedObjects.map(\.name), ["Felix"])
        // An abstract entity nothing inherits from could never have objects.
        expectError(try ManagedObjectModel(entities: [Animal.self]), .invalidModel) { error in
            XCTAssertTrue(error.message.contains("Animal is abstract but no entity of the model inherits from it"), error.message)
        }
    }

    func testObjectIDsNameTheConcreteEntity() {
        forEachStore { container, _ in
            try seed(container.newContext())
            let context = container.newContext()
            let bit = try XCTUnwrap(context.fetch(FetchRequest<Animal>(predicate: \.name == "Bit")).first)
            XCTAssertEqual(bit.objectID.entityName, "Puppy")
            let other = container.newContext()
            XCTAssertTrue(other.object(with: bit.objectID) is Puppy)
            XCTAssertEqual(try other.existingObject(Animal.self, primaryKey: 3).name, "Bit")
            XCTAssertTrue(try other.existingObject(Animal.self, primaryKey: 3) is Puppy)
            XCTAssertTrue(try other.existingObject(Dog.self, primaryKey: 3) is Puppy)
            expectError(try other.existingObject(Cat.self, primaryKey: 3), .objectNotFound) { _ in }
            expectError(try other.existingObject(Animal.self, primaryKey: 99), .objectNotFound) { _ in }
            // An ID that names the wrong entity of the tree finds nothing, not another entity's row.
            let forged = ObjectID(entityName: "Cat", storeIdentifier: bit.objectID.storeIdentifier, key: 3, isTemporary: false)
            XCTAssertNil(other.object(with: forged))
        }
    }

    func testAnotherContextsSaveOfASubentityObjectIsMerged() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory, entities: entities)
        try seed(container.newContext())
        let reader = container.newContext()
        let before = try reader.fetch(FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.name)]))
        var changed: [String] = []
        let token = reader.addObserver { changes in
            changed += changes.updated.map { "\(($0.object as? Animal)?.name ?? "?"):\($0.keys.names.sorted())" }
        }
        let writer = container.newContext()
        let rex = try XCTUnwrap(writer.fetch(FetchRequest<Dog>(predicate: \.name == "Rex")).first)
        rex.breed = "mastiff"
        rex.weight = 40
        try writer.save()
        reader.processPendingChanges()
        XCTAssertEqual((before.last(where: { $0.name == "Rex" }) as? Dog)?.breed, "mastiff")
        XCTAssertEqual(changed, ["Rex:[\"breed\", \"weight\"]"])
        XCTAssertEqual(describe(try reader.fetch(FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.weight, order: .reverse)]))).first,
                       "Rex:Dog")
        token.cancel()
    }

    private func names(_ connection: SQLiteConnection, _ sql: String) throws -> [String] {
        let statement = try connection.prepare(sql)
        var result: [String] = []
        while try statement.step() { result.append(statement.string(at: 0)) }
        return result
    }
}
