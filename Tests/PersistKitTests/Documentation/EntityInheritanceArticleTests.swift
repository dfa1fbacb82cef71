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

    final class Owner: ManagedObject {
        @Attribute var name = ""
        @Relationship(inverse: .none) var favorite: Animal?
        @Relationship(inverse: .none, deleteRule: .cascade) var pets: Set<Animal>
    }

    static func makeContainer(at url: URL) throws -> PersistentContainer {
        let model = try ManagedObjectModel(entities: [Animal.self, Dog.self, Cat.self, Owner.self])
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

    static func adopt(_ context: ManagedObjectContext) throws {
        let animals = try context.fetch(FetchRequest<Animal>(sortBy: [FetchSortDescriptor(\.name)]))
        let ann = Owner(context: context)
        ann.name = "Ann"
        ann.pets = Set(animals)
        ann.favorite = animals.first    // Rex, a Dog
        try context.save()
    }

    static func favoriteDog(_ context: ManagedObjectContext) throws -> Dog? {
        let owners = try context.fetch(FetchRequest<Owner>(predicate: try FetchPredicate(format: "favorite.name == 'Rex'")))
        if let dog = owners.first?.favorite as? Dog { print("\(dog.name) is a \(dog.breed)") }   // Rex is a boxer
        return owners.first?.favorite as? Dog
    }

    static func onlyItsOwn(_ context: ManagedObjectContext) throws -> Int {
        var request = FetchRequest<Animal>()
        request.includesSubentities = false
        return try context.count(for: request)    // 0: Animal is abstract
    }

    static func entityTests(_ context: ManagedObjectContext) throws -> (exact: [Animal], isA: [Animal]) {
        let onlyDogs = try context.fetch(FetchRequest<Animal>(predicate: try FetchPredicate(format: "entity == %@", Dog.self)))
        let dogsAndBelow = try context.fetch(FetchRequest<Animal>(predicate: FetchPredicate(#Predicate { $0 is Dog })))
        return (onlyDogs, dogsAndBelow)
    }

    static func batch(_ context: ManagedObjectContext) throws -> BatchResult {
        let heavy = try context.execute(BatchUpdateRequest<Animal>(predicate: \.weight > 20, propertiesToUpdate: ["weight": 20.0]))
        var onlyDogs = BatchDeleteRequest<Dog>(predicate: \.breed == "boxer")
        onlyDogs.includesSubentities = false    // a Puppy that is a boxer stays
        try context.execute(onlyDogs)
        try context.execute(BatchInsertRequest<Cat>(objects: [["name": "Sam", "weight": 4.0]]))
        return heavy
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

/// The article's relationships declared in a tree.
enum EntityInheritanceTreeArticle {
    class Pet: ManagedObject {
        override class var isAbstractEntity: Bool { true }
        @Attribute var name = ""
        @Relationship var person: Person?                         // Puppies and Kittens have one
        @Relationship(inverse: \Pet.litter) var mother: Pet?       // within the tree
        @Relationship var litter: Set<Pet>
    }

    final class Puppy: Pet {
        @Attribute var breed = ""
    }

    final class Kitten: Pet {
        @Attribute var lives = 9
    }

    final class Person: ManagedObject {
        @Attribute var name = ""
        @Relationship(inverse: \Pet.person, deleteRule: .cascade) var pets: Set<Pet>
    }

    static func link(_ context: ManagedObjectContext) throws -> [Pet] {
        let ann = Person(context: context)
        ann.name = "Ann"
        let rex = Puppy(context: context)
        rex.name = "Rex"
        rex.person = ann                 // ann.pets holds Rex
        let tom = Kitten(context: context)
        tom.name = "Tom"
        tom.mother = rex                 // rex.litter holds Tom
        ann.pets.insert(tom)             // tom.person is Ann
        try context.save()
        return try context.fetch(FetchRequest<Pet>(predicate: try FetchPredicate(format: "person.name == 'Ann' AND mother != nil")))   // [Tom]
    }
}

/// The article's migration: version 2 of the article's tree adds `Dog.goodBoy`.
enum EntityInheritanceMigrationArticle {
    class Animal: ManagedObject {
        override class var isAbstractEntity: Bool { true }
        @Attribute var name = ""
        @Attribute var weight = 0.0
    }

    final class Dog: Animal {
        @Attribute var breed = ""
        @Attribute var goodBoy = true
    }

    final class Cat: Animal {
        @Attribute var lives = 9
    }

    static func open(_ url: URL, version1: ManagedObjectModel, version2: ManagedObjectModel) throws -> PersistentContainer {
        let plan = MigrationPlan(models: [version1], stages: [
            .custom(from: 1, to: 2, willMigrate: nil, didMigrate: { context in
                // Version 2 added Dog.goodBoy (true by default): boxers are not.
                for dog in try context.fetch(FetchRequest<Dog>(predicate: \.breed == "boxer")) { dog.goodBoy = false }
            }),
        ])
        return try PersistentContainer(model: version2, store: .sqlite(url), options: .init(migrationPlan: plan))
    }
}

final class EntityInheritanceArticleTests: XCTestCase {
    func testTheArticlesRelationshipsInATreeRun() throws {
        typealias Tree = EntityInheritanceTreeArticle
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: [Tree.Pet.self, Tree.Puppy.self, Tree.Kitten.self, Tree.Person.self])
        let container = try PersistentContainer(model: model, store: .sqlite(directory.file("pets.sqlite")))
        XCTAssertEqual(try Tree.link(container.newContext()).map(\.name), ["Tom"])
        let context = container.newContext()
        let ann = try XCTUnwrap(context.fetch(FetchRequest<Tree.Person>()).first)
        XCTAssertEqual(ann.pets.map { "\($0.name):\(type(of: $0))" }.sorted(), ["Rex:Puppy", "Tom:Kitten"])
        let rex = try XCTUnwrap(ann.pets.first { $0 is Tree.Puppy })
        XCTAssertEqual(rex.litter.map(\.name), ["Tom"])
        context.delete(ann)             // cascades to her pets
        try context.save()
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<Tree.Pet>()), 0)
    }

    func testTheArticlesMigrationRuns() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("animals.sqlite")
        let version1 = try ManagedObjectModel(entities: [EntityInheritanceArticle.Animal.self, EntityInheritanceArticle.Dog.self,
                                                         EntityInheritanceArticle.Cat.self], version: 1)
        let context = try PersistentContainer(model: version1, store: .sqlite(url)).newContext()
        try EntityInheritanceArticle.insert(into: context)
        typealias V2 = EntityInheritanceMigrationArticle
        let version2 = try ManagedObjectModel(entities: [V2.Animal.self, V2.Dog.self, V2.Cat.self], version: 2)
        let container = try V2.open(url, version1: version1, version2: version2)
        let animals = try container.newContext().fetch(FetchRequest<V2.Animal>(sortBy: [FetchSortDescriptor(\.name)]))
        XCTAssertEqual(animals.map { "\($0.name):\(type(of: $0))" }, ["Rex:Dog", "Tom:Cat"])
        XCTAssertEqual((animals.first as? V2.Dog)?.goodBoy, false)
    }

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
        let (exact, isA) = try EntityInheritanceArticle.entityTests(fresh)
        XCTAssertEqual(exact.map(\.name), ["Rex"])
        XCTAssertEqual(isA.map(\.name), ["Rex"])
        // Tom weighs 0 and Rex 30 once Rex is weighed; Felix, inserted, joins between them.
        (animals[0] as? EntityInheritanceArticle.Dog)?.weight = 30
        try fresh.save()
        XCTAssertEqual(try EntityInheritanceArticle.list(fresh), ["Tom", "Felix", "Rex"])

        try EntityInheritanceArticle.adopt(context)
        let other = container.newContext()
        XCTAssertEqual(try EntityInheritanceArticle.favoriteDog(other)?.breed, "boxer")
        // Deleting Ann deletes her pets (cascade).
        let ann = try XCTUnwrap(other.fetch(FetchRequest<EntityInheritanceArticle.Owner>()).first)
        XCTAssertEqual(ann.pets.count, 2)
        other.delete(ann)
        try other.save()
        XCTAssertEqual(try other.count(for: FetchRequest<EntityInheritanceArticle.Animal>()), 0)

        // Batch requests: Rex (30) is weighed down to 20, then deleted as a boxer; Sam is inserted.
        try EntityInheritanceArticle.insert(into: other)
        let rex = try XCTUnwrap(other.fetch(FetchRequest<EntityInheritanceArticle.Dog>()).first)
        rex.weight = 30
        try other.save()
        XCTAssertEqual(try EntityInheritanceArticle.batch(other).objectIDs.map(\.entityName), ["Dog"])
        XCTAssertEqual(try container.newContext().fetch(FetchRequest<EntityInheritanceArticle.Animal>(sortBy: [FetchSortDescriptor(\.name)]))
                        .map { "\($0.name):\(type(of: $0))" }, ["Sam:Cat", "Tom:Cat"])

        let abstract = EntityInheritanceArticle.Animal(context: context)
        abstract.name = "nobody"
        expectError(try context.save(), .validation) { error in
            XCTAssertTrue(error.message.contains("Animal is abstract and cannot be inserted"), error.message)
        }
    }
}

/// The article's uniqueness in a tree: a root's constraint spans every entity, a sub-entity's
/// its own objects and its sub-entities'.
enum EntityInheritanceUniquenessArticle {
    class Member: ManagedObject {
        override class var isAbstractEntity: Bool { true }
        @Attribute(.unique) var tag = ""    // unique across Players, Captains and Coaches
        @Attribute var name = ""
    }

    class Player: Member {
        override class var uniquenessConstraints: [[String]] { [["name"]] }   // unique among Players and Captains
    }

    final class Captain: Player {}

    final class Coach: Member {}

    /// The second save fails: the Captain is left unsaved.
    static func save(_ context: ManagedObjectContext) throws {
        let ann = Player(context: context)
        ann.tag = "A"
        ann.name = "Ann"
        let bob = Coach(context: context)
        bob.tag = "B"
        bob.name = "Ann"        // a Coach may share a Player's name
        try context.save()

        let cid = Captain(context: context)
        cid.tag = "A"
        cid.name = "Cid"
        do {
            try context.save()
        } catch let error as PersistError {
            print(error.message)    // Captain.tag "A" is already used by Player 1
        }
    }
}

final class EntityInheritanceUniquenessArticleTests: XCTestCase {
    func testTheArticlesUniquenessRuns() throws {
        typealias Article = EntityInheritanceUniquenessArticle
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: [Article.Member.self, Article.Player.self, Article.Captain.self, Article.Coach.self])
        let context = try PersistentContainer(model: model, store: .sqlite(directory.file("members.sqlite"))).newContext()
        try Article.save(context)
        XCTAssertEqual(context.insertedObjects.map { "\(type(of: $0))" }, ["Captain"], "the second save failed")
        context.rollback()
        XCTAssertEqual(try context.count(for: FetchRequest<Article.Member>()), 2)
    }
}

/// The article's large values in a tree.
enum EntityInheritanceExternalArticle {
    class Document: ManagedObject {
        override class var isAbstractEntity: Bool { true }
        @Attribute var title = ""
        @Attribute(.externalStorage) var preview: Data?       // every kind of document, above 100 KB
    }

    final class Scan: Document {
        @Attribute(.externalStorage(threshold: 1_000_000)) var pages: Data?    // scans only
    }

    final class Note: Document {
        @Attribute var text = ""
    }

    static func saveAndDelete(_ context: ManagedObjectContext, preview: Data, pages: Data,
                              filesAfterSave: () -> Int) throws -> [Document] {
        let lease = Scan(context: context)
        lease.title = "Lease"
        lease.preview = preview         // two files: the preview and the pages
        lease.pages = pages
        try context.save()
        XCTAssertEqual(filesAfterSave(), 2)
        let documents = try context.fetch(FetchRequest<Document>(predicate: \.preview != nil))
        try context.execute(BatchDeleteRequest<Document>(predicate: \.title == "Lease"))    // and its files
        return documents
    }
}

final class EntityInheritanceExternalArticleTests: XCTestCase {
    func testTheArticlesLargeValuesInATreeRun() throws {
        typealias Article = EntityInheritanceExternalArticle
        let directory = TemporaryDirectory()
        let url = directory.file("documents.sqlite")
        let model = try ManagedObjectModel(entities: [Article.Document.self, Article.Scan.self, Article.Note.self])
        let container = try PersistentContainer(model: model, store: .sqlite(url))
        let folder = url.path + "-external"
        func files() -> Int { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).count }
        let writer = container.newContext()
        let note = Article.Note(context: writer)
        note.title = "small"
        note.preview = Data(count: 10)
        try writer.save()
        let documents = try Article.saveAndDelete(container.newContext(), preview: Data(repeating: 1, count: 200_000),
                                                  pages: Data(repeating: 2, count: 1_500_000), filesAfterSave: files)
        XCTAssertEqual(documents.map { "\($0.title):\(type(of: $0))" }.sorted(), ["Lease:Scan", "small:Note"])
        XCTAssertEqual(files(), 0, "the batch delete removed the scan's two files")
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<Article.Document>()), 1)
    }
}
