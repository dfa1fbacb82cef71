import Foundation
import PersistKit
import PersistKitTestSupport
import TaskModel
import XCTest

/// `persistkit history` (the persistent history through the library) and `persistkit model diff`
/// (what an inferred migration would do).
final class HistoryAndModelCommandTests: XCTestCase {
    private let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testHistoryListsTransactionsWithAuthorsAndChanges() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("tasks.sqlite")
        try ToolStores.writeTaskStore(at: url)
        let container = try PersistentContainer(model: TaskStore.makeModel(), store: .sqlite(url))
        let context = container.newContext()
        context.transactionAuthor = "sync"
        context.name = "importer"
        let task = try XCTUnwrap(context.fetch(FetchRequest<TaskItem>(predicate: \.name == "Call mom")).first)
        task.name = "Call dad"
        try context.save()
        let number = try XCTUnwrap(container.currentHistoryToken()).transactionNumber

        let all = try ToolRunner.ok("history", url.path).lines
        XCTAssertEqual(all.filter { $0.hasPrefix("#") }.count, Int(number), "\(all)")
        let mine = try ToolRunner.ok("history", url.path, "--author", "sync").lines
        XCTAssertEqual(mine.count, 2, "\(mine)")
        XCTAssertTrue(mine[0].hasPrefix("#\(number)  ") && mine[0].hasSuffix("  author sync  context importer"), mine[0])
        XCTAssertEqual(mine[1], "  update Task #\(task.objectID.primaryKey ?? 0) (name)")
        XCTAssertEqual(try ToolRunner.ok("history", url.path, "--after", "\(number)").lines, ["no transactions match"])

        let json = try ToolRunner.ok("history", url.path, "--after", "\(number - 1)", "--json").stdout
        let transactions = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        XCTAssertEqual(transactions.count, 1)
        XCTAssertEqual(transactions[0]["author"] as? String, "sync")
        XCTAssertEqual((transactions[0]["changes"] as? [[String: Any]])?.first?["changedKeys"] as? [String], ["name"])
        try ToolRunner.fails("history", url.path, "--after", "-3", status: 64)
    }

    func testModelDiffSaysWhatTheTaskModelsMigrationDoes() throws {
        let lines = try ToolRunner.ok("model", "diff", schema.appendingPathComponent("Schema/TaskModel/1.json").path,
                                      schema.appendingPathComponent("Schema/TaskModel/2.json").path).lines
        XCTAssertEqual(lines.first, "Stage 1: version 1 → 2")
        XCTAssertTrue(lines.contains("  adds attribute Task.completedAt (date, optional): existing objects get nil"), "\(lines)")
        XCTAssertTrue(lines.contains("  adds relationship Task.tags (to-many to Tag): existing objects start with none"), "\(lines)")
        XCTAssertTrue(lines.contains("  adds entity Project (a new, empty table)"), "\(lines)")
    }

    func testModelDiffGoesStageByStage() throws {
        let planner = schema.appendingPathComponent("Tests/Schema/Planner")
        let lines = try ToolRunner.ok("model", "diff", planner.appendingPathComponent("1.json").path,
                                      planner.appendingPathComponent("2.json").path, planner.appendingPathComponent("3.json").path).lines
        XCTAssertEqual(lines.filter { $0.hasPrefix("Stage ") }, ["Stage 1: version 1 → 2", "Stage 2: version 2 → 3"])
        XCTAssertFalse(lines.contains("  no change to the stored data"))
    }

    func testAChangeThatCannotBeInferredNeedsACustomStage() throws {
        let directory = TemporaryDirectory()
        let old = directory.file("1.json"), new = directory.file("2.json")
        try Data(#"{"formatVersion": 1, "entities": [{"name": "Task", "attributes": [{"name": "size", "type": "string", "optional": false}], "relationships": [], "uniquenessConstraints": []}]}"#.utf8).write(to: old)
        try Data(#"{"formatVersion": 1, "entities": [{"name": "Task", "attributes": [{"name": "size", "type": "integer", "optional": false}], "relationships": [], "uniquenessConstraints": []}]}"#.utf8).write(to: new)
        let result = try ToolRunner.run(["model", "diff", old.path, new.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.lines.first, "Stage 1: version 1 → 2")
        XCTAssertTrue(result.lines[1].hasPrefix("  cannot be inferred: cannot migrate the model from version 1 to 2: Task.size changes type from string to integer"),
                      result.stdout)
        XCTAssertEqual(result.stderr, "persistkit: stage 1 cannot be inferred: it needs a custom MigrationStage (willMigrate/didMigrate code)\n")
        let same = try ToolRunner.ok("model", "diff", old.path, old.path).lines
        XCTAssertEqual(same.last, "  no change to the stored data")
        let broken = try ToolRunner.fails("model", "diff", old.path, directory.file("missing.json").path, status: 1)
        XCTAssertTrue(broken.stderr.hasPrefix("persistkit: cannot read "), broken.stderr)
        try ToolRunner.fails("model", "diff", old.path, status: 64)
    }
}
