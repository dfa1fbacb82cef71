import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Inferred (lightweight) stages for entities and attributes: each kind of change, on a store
/// written by version 1, keeps every value it should and ends with a new store's schema.
final class InferredMigrationTests: XCTestCase {
    private typealias Base = MigrationBase

    private func taskRows(_ container: PersistentContainer, _ columns: String) throws -> [[SQLValue]] {
        try rows(container, "SELECT \(columns) FROM Task ORDER BY _pk")
    }

    func testNoSchemaChangeKeepsEverything() throws {
        let directory = TemporaryDirectory()
        // Version 2 changes only a default and a delete rule: no table changes, the version does.
        var attributes = Base.taskAttributes
        attributes[2] = attribute("done", "boolean", default: ["integer": 1])
        let container = try Base.migrate(to: [
            Base.project(relationships: [relationship("tasks", to: "Task", toMany: true, inverse: "project", deleteRule: "cascade")]),
            Base.task(attributes), Base.tag(),
        ], in: directory)
        XCTAssertEqual(try taskRows(container, "title, notes, done, rank, project"), [
            [.text("Buy milk"), .text("2 litres"), .integer(0), .integer(3), .integer(1)],
            [.text("Call Ada"), .text("about 'tea'"), .integer(1), .integer(-2), .integer(2)],
            [.text("File taxes"), .null, .integer(0), .integer(7), .integer(1)],
            [.text("Walk"), .null, .integer(1), .null, .null],
        ])
        XCTAssertEqual(try Base.links(container, "_persistkit_join_Tag_tasks"), ["1-1", "2-1", "2-2"])
        let context = container.newContext()
        let task = try insert("Task", ["title": "New"], into: context)
        XCTAssertEqual(try task.value(forKey: "done") as? Bool, true, "the new default applies to new objects")
        let project = try XCTUnwrap(context.fetch(FetchRequest<ManagedObject>(entityName: "Project")).first)
        context.delete(project)
        try context.save()
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Task")), 3,
                       "the new delete rule (cascade) applies")
    }

    func testAddedEntityStartsEmpty() throws {
        let directory = TemporaryDirectory()
        let container = try Base.migrate(to: [Base.project(), Base.task(), Base.tag(),
                                              entity("Person", [attribute("name", "string")])], in: directory)
        XCTAssertEqual(container.migrationReport?.objectCounts, ["Project": 2, "Task": 4, "Tag": 3, "Person": 0])
        let context = container.newContext()
        try insert("Person", ["name": "Ada"], into: context)
        try context.save()
    }

    /// A removed entity takes its table, its objects and its relationships' join tables with it.
    func testRemovedEntityIsDropped() throws {
        let directory = TemporaryDirectory()
        let container = try Base.migrate(to: [Base.project(), Base.task(relationships: [Base.taskRelationships[0]])], in: directory)
        let tables = try rows(container, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('_persistkit_history', 'sqlite_sequence') ORDER BY name").map { "\($0[0])" }
        XCTAssertEqual(tables, ["'Project'", "'Task'", "'_persistkit_metadata'"])
        XCTAssertEqual(try taskRows(container, "title, project").count, 4)
    }

    func testAddedAttributesGetTheirDefaultsOrNil() throws {
        let directory = TemporaryDirectory()
        let container = try Base.migrate(to: [Base.project(), Base.task(Base.taskAttributes + [
            attribute("due", "date", optional: true),
            attribute("priority", "integer", default: ["integer": 1]),
            attribute("colour", "string", optional: true, default: ["text": "it's blue"]),
            attribute("weight", "double", default: ["real": 0.1]),
            attribute("code", "binary", default: ["blob": Data([0, 1, 254]).base64EncodedString()]),
        ]), Base.tag()], in: directory)
        let expected: [SQLValue] = [.null, .integer(1), .text("it's blue"), .real(0.1), .blob(Data([0, 1, 254]))]
        XCTAssertEqual(try taskRows(container, "due, priority, colour, weight, code"), Array(repeating: expected, count: 4))
        XCTAssertEqual(try taskRows(container, "title").map { "\($0[0])" }, ["'Buy milk'", "'Call Ada'", "'File taxes'", "'Walk'"])
        // The migrated table takes new objects like a new store's.
        let context = container.newContext()
        try insert("Task", ["title": "New", "priority": 5], into: context)
        try context.save()
    }

    /// A required attribute with no default has no value for the existing objects: refused,
    /// naming them, the store left at version 1. (On an empty table it is simply added.)
    func testAddedRequiredAttributeWithoutDefaultNeedsAnEmptyTable() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        try Base.writeVersion1(at: url)
        let version2 = try documentModel(2, [Base.project(), Base.task(Base.taskAttributes + [attribute("owner", "string")]), Base.tag()])
        let error = expectPersistError(try openMigrating(url, to: version2, from: [Base.version1()]), [.validation])
        XCTAssertEqual(error?.entity, "Task")
        XCTAssertEqual(error?.attribute, "owner")
        XCTAssertEqual(error?.objectIDs.map(\.key), [1, 2, 3, 4])
        XCTAssertTrue(error?.message.contains("4 Task objects have no value") ?? false, error?.message ?? "")
        let old = try PersistentContainer(model: Base.version1(), store: .sqlite(url))
        XCTAssertEqual(try storedModelMetadata(old)["modelVersion"], "1", "nothing changed")
        XCTAssertEqual(try rows(old, "SELECT count(*) FROM Task"), [[.integer(4)]])

        let empty = directory.file("empty.sqlite")
        try writeStore(at: empty, model: Base.version1()) { _ in }
        let migrated = try openMigrating(empty, to: version2, from: [Base.version1()])
        try assertSchemaMatchesFreshStore(migrated)
    }

    func testRemovedAttributeIsDropped() throws {
        let directory = TemporaryDirectory()
        let container = try Base.migrate(to: [Base.project(), Base.task([Base.taskAttributes[0], Base.taskAttributes[2]]), Base.tag()],
                                         in: directory)
        XCTAssertEqual(try taskRows(container, "title, done, project").map { $0.map(\.description) }, [
            ["'Buy milk'", "0", "1"], ["'Call Ada'", "1", "2"], ["'File taxes'", "0", "1"], ["'Walk'", "1", "NULL"],
        ])
    }

    func testRenamedAttributeKeepsItsValues() throws {
        let directory = TemporaryDirectory()
        var attributes = Base.taskAttributes
        attributes[0] = attribute("name", "string", originalName: "title")
        attributes[2] = attribute("isComplete", "boolean", default: ["integer": 0], originalName: "done")
        let container = try Base.migrate(to: [Base.project(), Base.task(attributes), Base.tag()], in: directory)
        XCTAssertEqual(try taskRows(container, "name, isComplete").map { $0.map(\.description) },
                       [["'Buy milk'", "0"], ["'Call Ada'", "1"], ["'File taxes'", "0"], ["'Walk'", "1"]])
        let reader = container.newContext()
        let task = try XCTUnwrap(reader.fetch(FetchRequest<ManagedObject>(entityName: "Task")).first)
        XCTAssertEqual(try task.value(forKey: "name") as? String, "Buy milk")
    }

    /// A renamed entity keeps its objects, its relationships, and its primary-key high-water
    /// mark (new objects never reuse a deleted object's key).
    func testRenamedEntityKeepsItsObjectsAndReferences() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        try Base.writeVersion1(at: url)
        let old = try PersistentContainer(model: Base.version1(), store: .sqlite(url))
        let context = old.newContext()
        let work = try XCTUnwrap(context.fetch(FetchRequest<ManagedObject>(entityName: "Project")).last)
        context.delete(work)
        try context.save()
        let version2 = try documentModel(2, [
            Base.project(relationships: [relationship("tasks", to: "Task", toMany: true, inverse: "project")], name: "Folder",
                         originalName: "Project"),
            Base.task(relationships: [relationship("project", to: "Folder", inverse: "tasks"), Base.taskRelationships[1]]),
            Base.tag(),
        ])
        let container = try openMigrating(url, to: version2, from: [Base.version1()])
        try assertSchemaMatchesFreshStore(container)
        XCTAssertEqual(try rows(container, "SELECT _pk, name FROM Folder").map { $0.map(\.description) }, [["1", "'Home'"]])
        XCTAssertEqual(try taskRows(container, "project").map { $0[0] }, [.integer(1), .null, .integer(1), .null])
        let fresh = container.newContext()
        let folder = try insert("Folder", ["name": "Garden"], into: fresh)
        try fresh.save()
        XCTAssertEqual(folder.objectID.key, 3, "the deleted Work (2) keeps its key")
        let tasks = try fresh.fetch(FetchRequest<ManagedObject>(entityName: "Task"))
        XCTAssertEqual(try tasks[0].relatedObjects(forKey: "project").first.flatMap { try $0.value(forKey: "name") as? String }, "Home")
    }

    /// Optional → required with a default: the nils take the default. Required → optional:
    /// nil can be saved after.
    func testOptionalityChanges() throws {
        let directory = TemporaryDirectory()
        var attributes = Base.taskAttributes
        attributes[0] = attribute("title", "string", optional: true)
        attributes[1] = attribute("notes", "string", default: ["text": "(none)"])
        attributes[3] = attribute("rank", "integer16", default: ["integer": 0])
        let container = try Base.migrate(to: [Base.project(), Base.task(attributes), Base.tag()], in: directory)
        XCTAssertEqual(try taskRows(container, "notes, rank").map { $0.map(\.description) },
                       [["'2 litres'", "3"], ["'about ''tea'''", "-2"], ["'(none)'", "7"], ["'(none)'", "0"]])
        // The table was copied (SQLite cannot change NOT NULL in place): the links to and from
        // its rows are all there.
        XCTAssertEqual(try taskRows(container, "project").map { $0[0] }, [.integer(1), .integer(2), .integer(1), .null])
        XCTAssertEqual(try Base.links(container, "_persistkit_join_Tag_tasks"), ["1-1", "2-1", "2-2"])
        let context = container.newContext()
        let task = try XCTUnwrap(context.fetch(FetchRequest<ManagedObject>(entityName: "Task")).first)
        try task.setValue(nil, forKey: "title")
        try context.save()
        XCTAssertEqual(try taskRows(container, "title").first, [.null])
    }

    /// Optional → required without a default works only when no object is nil; otherwise it is
    /// refused naming the objects (a custom stage can fill them first).
    func testOptionalToRequiredWithoutDefaultNamesTheNils() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        try Base.writeVersion1(at: url)
        var attributes = Base.taskAttributes
        attributes[1] = attribute("notes", "string")
        let version2 = try documentModel(2, [Base.project(), Base.task(attributes), Base.tag()])
        let error = expectPersistError(try openMigrating(url, to: version2, from: [Base.version1()]), [.validation])
        XCTAssertEqual(error?.objectIDs.map(\.key), [3, 4])
        XCTAssertEqual(error?.attribute, "notes")
        let filled = try openMigrating(url, to: version2, from: [Base.version1()], stages: [
            .custom(from: 1, to: 2, willMigrate: { context in
                for task in try context.fetch(FetchRequest<ManagedObject>(entityName: "Task")) where try task.value(forKey: "notes") == nil {
                    try task.setValue("(filled)", forKey: "notes")
                }
            }),
        ])
        XCTAssertEqual(try taskRows(filled, "notes").map { "\($0[0])" }, ["'2 litres'", "'about ''tea'''", "'(filled)'", "'(filled)'"])
        try assertSchemaMatchesFreshStore(filled)
    }

    func testWiderIntegerKeepsItsValues() throws {
        let directory = TemporaryDirectory()
        var attributes = Base.taskAttributes
        attributes[3] = attribute("rank", "integer64", optional: true)
        let container = try Base.migrate(to: [Base.project(), Base.task(attributes), Base.tag()], in: directory)
        XCTAssertEqual(try taskRows(container, "rank").map { $0[0] }, [.integer(3), .integer(-2), .integer(7), .null])
    }

    func testChangeOfTypeIsRefusedUntouched() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        try Base.writeVersion1(at: url)
        let before = try directorySnapshot(directory.url)
        var attributes = Base.taskAttributes
        attributes[3] = attribute("rank", "string", optional: true)
        let version2 = try documentModel(2, [Base.project(), Base.task(attributes), Base.tag()])
        let error = expectPersistError(try openMigrating(url, to: version2, from: [Base.version1()]), [.incompatibleModel])
        XCTAssertEqual(error?.attribute, "rank")
        XCTAssertTrue(error?.message.contains("integer16 to string") ?? false, error?.message ?? "")
        assertSameFiles(before, try directorySnapshot(directory.url))
    }

    /// An original name left in later versions is harmless (the name matches first), but one
    /// that names another property still there in the old version is ambiguous: refused,
    /// rather than dropping one of the two.
    func testAmbiguousOriginalNameIsRefused() throws {
        var attributes = Base.taskAttributes
        attributes[1] = attribute("notes", "string", optional: true, originalName: "title")
        attributes.remove(at: 0)
        let version2 = try documentModel(2, [Base.project(), Base.task(attributes), Base.tag()])
        let error = expectPersistError(try MigrationPlan(models: [Base.version1()]).check(upTo: version2), [.incompatibleModel])
        XCTAssertEqual(error?.attribute, "notes")
        XCTAssertTrue(error?.message.contains("has both") ?? false, error?.message ?? "")

        let old = try documentModel(1, [entity("A", [attribute("x", "string")]), entity("B", [attribute("x", "string")])])
        let new = try documentModel(2, [entity("B", [attribute("x", "string")], originalName: "A")])
        let entityError = expectPersistError(try MigrationPlan(models: [old]).check(upTo: new), [.incompatibleModel])
        XCTAssertEqual(entityError?.entity, "B")
        // Still named in the version after the rename, where only the new name exists: fine.
        let version3 = try documentModel(3, [entity("B", [attribute("y", "string", originalName: "x")], originalName: "A")])
        try MigrationPlan(models: [documentModel(2, [entity("B", [attribute("y", "string", originalName: "x")])])]).check(upTo: version3)
    }

    /// An `originalName` the old version does not have is a mistake, not a new attribute: the
    /// values would be lost.
    func testUnknownOriginalNameIsRefused() throws {
        let directory = TemporaryDirectory()
        var attributes = Base.taskAttributes
        attributes[0] = attribute("name", "string", originalName: "titel")
        let error = expectPersistError(try Base.migrate(to: [Base.project(), Base.task(attributes), Base.tag()], in: directory),
                                       [.incompatibleModel])
        XCTAssertTrue(error?.message.contains("titel") ?? false, error?.message ?? "")
        let version2 = try documentModel(2, [
            Base.project(name: "Folder", originalName: "Projekt"),
            Base.task(relationships: [relationship("project", to: "Folder", inverse: "tasks"), Base.taskRelationships[1]]),
            Base.tag(),
        ])
        let entityError = expectPersistError(try MigrationPlan(models: [Base.version1()]).check(upTo: version2), [.incompatibleModel])
        XCTAssertEqual(entityError?.entity, "Folder")
        XCTAssertTrue(entityError?.message.contains("Projekt") ?? false, entityError?.message ?? "")
    }
}
