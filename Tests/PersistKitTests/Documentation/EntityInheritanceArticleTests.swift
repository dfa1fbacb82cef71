import Foundation
import PersistKit
import PersistKitTestSupport
import XCTest

/// The code of the DocC article Entity Inheritance, compiled and run (`DocumentationCodeBlocksTests`
/// checks that every block of the article stands here).
enum EntityInheritanceArticle {
    class Animal: ManagedObject {
        override class var isAbstractEntity: Bool { true }   // only Dogs and Cats are stored
        @Attribute var name = ""
        @Attribute var weight = 0.0
    }

    final class Dog: Animal {
        @Attribute var breed = ""
    }

    final class Cat: Animal {
        @Attribute var lives = 9
    }

    static func makeContainer(at url: URL) throws -> PersistentContainer {
        let model = try ManagedObjectModel(entities: [Animal.self, Dog.self, Cat.self])
        return try PersistentContainer(model: model, store: .sqlite(url))
    }

    static func insert(into context: ManagedObjectContext) throws {
        let rex = Dog(context: context)
        rex.name = "Rex"
        rex.breed = "boxer"
        let tom = Cat(context: context)
        tom.name = "Tom"
        try context.save()
    }

    static func fetchAll(_ context: ManagedObjectContext) throws -> [Animal] {
        let animals = try context.fetch(FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.name)]))
        for animal in animals {
            if let dog = animal as? Dog { print("\(dog.name) is a \(dog.breed)") }   // Rex is a boxer
        }
        return animals
    }

    static func fetchLight(_ context: ManagedObjectContext) throws -> (light: [Animal], dogs: [Dog]) {
        let light = try context.fetch(FetchRequest<Animal>(predicate: \.weight < 10))    // Dogs and Cats
        let dogs = try context.fetch(FetchRequest<Dog>(predicate: \.breed == "boxer"))
        return (light, dogs)
    }

    static func onlyItsOwn(_ context: ManagedObjectContext) throws -> Int {
        var request = FetchRequest<Animal>()
        request.includesSubentities = false
        return try context.count(for: request)    // 0: Animal is abstract
    }

    static func list(_ context: ManagedObjectContext) throws -> [String] {
        let animals = FetchedResultsController(fetchRequest: FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.weight)]),
                                               context: context)
        try animals.performFetch()
        let felix = Cat(context: context)      // a Cat joins the list of Animals
        felix.name = "Felix"
        felix.weight = 3
        context.processPendingChanges()
        return animals.fetchedObjects.map(\.name)   // ["Tom", "Felix", "Rex"] by weight
    }
}

final class EntityInheritanceArticleTests: XCTestCase {
    func testTheArticleRuns() throws {
        let directory = TemporaryDirectory()
        let container = try EntityInheritanceArticle.makeContainer(at: directory.file("animals.sqlite"))
        let context = container.newContext()
        try EntityInheritanceArticle.insert(into: context)
        let fresh = container.newContext()
        let animals = try EntityInheritanceArticle.fetchAll(fresh)
        XCTAssertEqual(animals.map(\.name), ["Rex", "Tom"])
        XCTAssertTrue(animals[0] is EntityInheritanceArticle.Dog)
        XCTAssertTrue(animals[1] is EntityInheritanceArticle.Cat)
        let (light, dogs) = try EntityInheritanceArticle.fetchLight(fresh)
        XCTAssertEqual(light.count, 2)
        XCTAssertEqual(dogs.map(\.name), ["Rex"])
        XCTAssertEqual(try EntityInheritanceArticle.onlyItsOwn(fresh), 0)
        XCTAssertEqual(animals[0].objectID.entityName, "Dog")
        // Tom weighs 0 and Rex 30 once Rex is weighed; Felix, inserted, joins between them.
        (animals[0] as? EntityInheritanceArticle.Dog)?.weight = 30
        try fresh.save()
        XCTAssertEqual(try EntityInheritanceArticle.list(fresh), ["Tom", "Felix", "Rex"])

        let abstract = EntityInheritanceArticle.Animal(context: context)
        abstract.name = "nobody"
        expectError(try context.save(), .validation) { error in
            XCTAssertTrue(error.message.contains("Animal is abstract and cannot be inserted"), error.message)
        }
    }
}
