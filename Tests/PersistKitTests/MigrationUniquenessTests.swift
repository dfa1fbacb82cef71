import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Uniqueness added or removed by a migration: an added constraint is checked against the
/// stored objects first (duplicates are named, nothing changes); a removed one stops applying.
final class MigrationUniquenessTests: XCTestCase {
    private typealias Base = MigrationBase

    func testAddedUniquenessOverDistinctValuesApplies() throws {
        let directory = TemporaryDirectory()
        let container = try Base.migrate(to: [Base.project(), Base.task(unique: [["title"]]), Base.tag()], in: directory)
        let context = container.newContext()
        try insert("Task", ["title": "Walk"], into: context)
        expectPersistError(try context.save(), [.constraintViolation])
    }

    /// Duplicates (tags "green" twice and "red" three times, one blue) stop the migration:
    /// the error names each value and its objects, and the store is still version 1.
    func testAddedUniquenessOverDuplicatesIsRefusedNamingThem() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        try writeStore(at: url, model: Base.version1()) { context in
            for label in ["red", "green", "red", "blue", "green", "red"] { try insert("Tag", ["label": label], into: context) }
        }
        let version2 = try documentModel(2, [Base.project(), Base.task(), entity("Tag", [attribute("label", "string")],
            relationships: [relationship("tasks", to: "Task", toMany: true, inverse: "tags")], unique: [["label"]])])
        let error = expectPersistError(try openMigrating(url, to: version2, from: [Base.version1()]), [.constraintViolation])
        XCTAssertEqual(error?.entity, "Tag")
        XCTAssertEqual(error?.reason, .constraintViolation(entity: "Tag", keys: ["label"], objects: error?.objectIDs ?? []))
        XCTAssertEqual(error?.objectIDs.map(\.key), [1, 3, 6, 2, 5])
        XCTAssertTrue(error?.message.contains("label 'red' (3 objects: Tag 1, Tag 3, Tag 6)") ?? false, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("label 'green' (2 objects: Tag 2, Tag 5)") ?? false, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("nothing was changed") ?? false, error?.message ?? "")
        let old = try PersistentContainer(model: Base.version1(), store: .sqlite(url))
        XCTAssertEqual(try storedModelMetadata(old)["modelVersion"], "1")
        XCTAssertEqual(try rows(old, "SELECT count(*) FROM Tag"), [[.integer(6)]])
        XCTAssertEqual(try rows(old, "SELECT count(*) FROM sqlite_master WHERE name LIKE '_persistkit_unique_Tag%'"), [[.integer(0)]])
    }

    /// Removing the duplicates in the stage's willMigrate lets the constraint be added.
    func testDuplicatesRemovedByACustomStageLetUniquenessApply() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        try writeStore(at: url, model: Base.version1()) { context in
            for label in ["red", "green", "red"] { try insert("Tag", ["label": label], into: context) }
        }
        let version2 = try documentModel(2, [Base.project(), Base.task(), entity("Tag", [attribute("label", "string")],
            relationships: [relationship("tasks", to: "Task", toMany: true, inverse: "tags")], unique: [["label"]])])
        let container = try openMigrating(url, to: version2, from: [Base.version1()], stages: [
            .custom(from: 1, to: 2, willMigrate: { context in
                var seen = Set<String>()
                for tag in try context.fetch(FetchRequest<ManagedObject>(entityName: "Tag")) {
                    let label = try tag.value(forKey: "label") as? String ?? ""
                    if !seen.insert(label).inserted { context.delete(tag) }
                }
            }),
        ])
        XCTAssertEqual(try rows(container, "SELECT label FROM Tag ORDER BY _pk").map { "\($0[0])" }, ["'red'", "'green'"])
        try assertSchemaMatchesFreshStore(container)
    }

    /// nil never collides, as in SQLite; a constraint over two attributes compares the pair.
    func testAddedCompoundUniquenessIgnoresNils() throws {
        let directory = TemporaryDirectory()
        let container = try Base.migrate(to: [Base.project(), Base.task(unique: [["notes", "rank"]]), Base.tag()], in: directory)
        XCTAssertEqual(try rows(container, "SELECT count(*) FROM Task"), [[.integer(4)]])
    }

    func testRemovedUniquenessNoLongerApplies() throws {
        let directory = TemporaryDirectory()
        let container = try Base.migrate(to: [Base.project(unique: []), Base.task(), Base.tag()], in: directory)
        let context = container.newContext()
        try insert("Project", ["name": "Home"], into: context)
        try context.save()
        XCTAssertEqual(try rows(container, "SELECT count(*) FROM Project WHERE name = 'Home'"), [[.integer(2)]])
    }

    /// A unique attribute renamed keeps its constraint (the index follows the column).
    func testRenamedUniqueAttributeStaysUnique() throws {
        let directory = TemporaryDirectory()
        let container = try Base.migrate(to: [
            Base.project([attribute("title", "string", originalName: "name")], unique: [["title"]]), Base.task(), Base.tag(),
        ], in: directory)
        let context = container.newContext()
        try insert("Project", ["title": "Home"], into: context)
        expectPersistError(try context.save(), [.constraintViolation])
    }
}
