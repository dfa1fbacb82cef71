import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Predicates that test an object's entity: `entity == %@` and `entity.name == 'Dog'` in format
/// strings (the entity exactly, as Core Data compares entities), `$0 is Dog` in `#Predicate`
/// (the entity and those below it, as Swift's `is`); the same answers in SQL (a fresh context)
/// and in memory (unsaved objects).
final class EntityTestPredicateTests: XCTestCase {
    private let entities: [ManagedObject.Type] = [Animal.self, Dog.self, Puppy.self, Cat.self, TestTask.self]

    /// Rex (Dog, 30), Bit (Puppy, 3), Tom (Cat, 4): saved, or (`saved` false) pending in the context.
    private func zoo(saved: Bool) throws -> (context: ManagedObjectContext, container: PersistentContainer) {
        let container = try PersistentContainer(model: try ManagedObjectModel(entities: entities), store: .inMemory)
        let writer = container.newContext()
        for (animal, name, weight) in [(Dog(context: writer) as Animal, "Rex", 30.0), (Puppy(context: writer), "Bit", 3), (Cat(context: writer), "Tom", 4)] {
            animal.name = name
            animal.weight = weight
        }
        if saved { try writer.save() }
        return (saved ? container.newContext() : writer, container)
    }

    /// The names a request over Animal fetches, sorted by name, in SQL and in memory alike.
    private func names(_ predicate: FetchPredicate<Animal>, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let request = FetchRequest<Animal>(predicate: predicate, sortBy: [FetchSortDescriptor(\.name)])
        let inSQL = try zoo(saved: true).context.fetch(request).map(\.name)
        let inMemory = try zoo(saved: false).context.fetch(request).map(\.name)
        XCTAssertEqual(inSQL, inMemory, "SQL and memory agree", file: file, line: line)
        return inSQL
    }

    func testAFormatStringTestsTheEntityExactly() throws {
        XCTAssertEqual(try names(FetchPredicate(format: "entity == %@", Dog.self)), ["Rex"], "a Puppy's entity is Puppy")
        XCTAssertEqual(try names(FetchPredicate(format: "entity != %@", Dog.self)), ["Bit", "Tom"])
        XCTAssertEqual(try names(FetchPredicate(format: "entity.name == 'Cat'")), ["Tom"])
        XCTAssertEqual(try names(FetchPredicate(format: "self.entity.name == \"Puppy\"")), ["Bit"])
        XCTAssertEqual(try names(FetchPredicate(format: "entity IN %@", [Dog.self, Puppy.self])), ["Bit", "Rex"])
        XCTAssertEqual(try names(FetchPredicate(format: "entity == 'Cat' OR weight > 20")), ["Rex", "Tom"])
        XCTAssertEqual(try names(FetchPredicate(format: "NOT (entity == %@) AND weight < 4", "Cat")), ["Bit"])
        let model = try ManagedObjectModel(entities: entities)
        XCTAssertEqual(try names(FetchPredicate(format: "entity == %@", try XCTUnwrap(model.entity(named: "Cat")))), ["Tom"])
        XCTAssertEqual(try names(FetchPredicate(format: "entity == 'Animal'")), [], "Animal is abstract: no object is an Animal exactly")
        XCTAssertEqual(try names(FetchPredicate(format: "entity == 'Horse'")), [], "no entity of that name")
    }

    func testIsInAFoundationPredicateIncludesSubentities() throws {
        XCTAssertEqual(try names(FetchPredicate(#Predicate<Animal> { $0 is Dog })), ["Bit", "Rex"])
        XCTAssertEqual(try names(FetchPredicate(#Predicate<Animal> { !($0 is Dog) })), ["Tom"])
        XCTAssertEqual(try names(FetchPredicate(#Predicate<Animal> { $0 is Puppy || $0.weight > 20 })), ["Bit", "Rex"])
    }

    func testOnAnEntityInNoTreeTheTestIsAConstant() throws {
        let container = try PersistentContainer(model: try ManagedObjectModel(entities: entities), store: .inMemory)
        let context = container.newContext()
        TestTask(context: context).name = "a"
        try context.save()
        let fresh = container.newContext()
        XCTAssertEqual(try fresh.count(for: FetchRequest<TestTask>(predicate: try FetchPredicate(format: "entity == %@", TestTask.self))), 1)
        XCTAssertEqual(try fresh.count(for: FetchRequest<TestTask>(predicate: try FetchPredicate(format: "entity.name != 'Task'"))), 0)
        let explanation = try fresh.explain(FetchRequest<TestTask>(predicate: try FetchPredicate(format: "entity == 'Task' AND name == 'a'")))
        XCTAssertFalse(explanation.sql.contains("_entity"), explanation.sql)
    }

    func testAnEntityTestOfSomethingElseIsAClearError() {
        expectError(try FetchPredicate<Animal>(format: "entity == 5"), .invalidPredicate) { error in
            XCTAssertTrue(error.message.contains("entity is compared with 5, which names no entity"), error.message)
        }
        expectError(try FetchPredicate<Animal>(format: "entity.name == %@", Dog.self), .invalidPredicate) { error in
            XCTAssertTrue(error.message.contains("which names no entity (give its name)"), error.message)
        }
        expectError(try FetchPredicate<Animal>(format: "entity BEGINSWITH 'D'"), .invalidPredicate) { error in
            XCTAssertTrue(error.message.contains("The entity can only be tested with ==, != or IN"), error.message)
        }
    }
}
