import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Stores of models without inheritance are what they were: a store written by PersistKit
/// before entity inheritance (`Tests/Stores/TaskModel-2-before-inheritance.sql`) opens with
/// today's code under the same model, without a migration, and reads and writes as before.
final class EntityInheritanceStoreTests: XCTestCase {
    private let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testAStoreWrittenBeforeInheritanceOpensUnchanged() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("tasks.sqlite")
        let dump = try String(contentsOf: package.appendingPathComponent("Tests/Stores/TaskModel-2-before-inheritance.sql"), encoding: .utf8)
        do {
            let connection = try SQLiteConnection(path: url.path, configuration: .init())
            try connection.execute(dump)
        }
        let document = try Data(contentsOf: package.appendingPathComponent("Schema/TaskModel/2.json"))
        let model = try ManagedObjectModel(document: document, version: 2)
        let raw = try SQLiteConnection(path: url.path, configuration: .init())
        XCTAssertEqual(try raw.singleText("SELECT value FROM _persistkit_metadata WHERE key = 'versionHash'"), model.versionHash,
                       "a model without inheritance keeps its version hash")
        let tables = try raw.singleText("SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_master WHERE type = 'table' ORDER BY name)")

        let container = try PersistentContainer(model: model, store: .sqlite(url))
        let context = container.newContext()
        let tasks = FetchRequest<ManagedObject>(entityName: "Task", sortBy: [FetchSortDescriptor(key: "name")])
        XCTAssertEqual(try context.fetch(tasks).map { try $0.value(forKey: "name") as? String },
                       ["Buy milk", "Buy milk", "Call mom", "Try the task list", "Water the plants"])
        let task = try XCTUnwrap(context.fetch(tasks).first)
        try task.setValue("Buy oat milk", forKey: "name")
        try context.save()
        XCTAssertEqual(task.objectID.key, 1)
        XCTAssertEqual(try container.newContext().count(for: tasks), 5)
        XCTAssertEqual(try raw.singleText("SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_master WHERE type = 'table' ORDER BY name)"),
                       tables, "no table was changed")
        XCTAssertEqual(try raw.singleText("SELECT name FROM Task WHERE _pk = 1"), "Buy oat milk")
        XCTAssertEqual(try raw.singleInt("SELECT count(*) FROM pragma_table_info('Task') WHERE name = '_entity'"), 0)
    }

    /// `persistkit check` reads a tree's table as the model lays it out: no schema problem, and a
    /// required sub-entity attribute left NULL in a row of that entity is a value problem, while
    /// other entities' rows may hold NULL there.
    func testTheStoreCheckKnowsATreesTable() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("tree.sqlite")
        let model = try ManagedObjectModel(entities: [Animal.self, Dog.self, Puppy.self, Cat.self, Keeper.self])
        do {
            let context = try PersistentContainer(model: model, store: .sqlite(url)).newContext()
            let rex = Dog(context: context)
            rex.name = "Rex"
            let tom = Cat(context: context)
            tom.name = "Tom"
            // A foreign key and join tables into the tree refer to its table.
            let keeper = Keeper(context: context)
            keeper.favorite = tom
            keeper.pets = [rex, tom]
            keeper.queue = [rex]
            try context.save()
        }
        XCTAssertEqual(try StoreInspector(url: url).schemaProblems(against: model), [])
        XCTAssertEqual(try StoreInspector(url: url).valueProblems(against: model), [])
        do {
            let raw = try SQLiteConnection(path: url.path, configuration: .init())
            try raw.execute("UPDATE Animal SET breed = NULL WHERE name = 'Rex'")
        }
        XCTAssertEqual(try StoreInspector(url: url).valueProblems(against: model),
                       ["value: Dog.breed holds 1 value that string cannot read (the first in Dog 1)"])
        let reader = try PersistentContainer(model: model, store: .sqlite(url)).newContext()
        expectError(try reader.fetch(FetchRequest<Dog>()), .typeMismatch) { _ in }
    }
}
