import Foundation
import PersistKitTestSupport
import TaskModel
import XCTest

/// `persistkit info` on real stores: today's TaskModel, TaskModel version 1, and a store written
/// before stores recorded their model.
final class InfoCommandTests: XCTestCase {
    func testInfoShowsTheModelEntitiesIndexesAndHistory() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("tasks.sqlite")
        try ToolStores.writeTaskStore(at: url)
        let before = storeBytes(url)
        let lines = try ToolRunner.ok("info", url.path).lines
        XCTAssertEqual(lines.first, url.path)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  model version \(TaskStore.modelVersion), hash ") && $0.hasSuffix(", model document recorded") },
                      "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("  Task ") && $0.hasSuffix(" 3 rows") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("  Project ") && $0.hasSuffix(" 1 row") }, "\(lines)")
        XCTAssertTrue(lines.contains("    project → Project (to-one, inverse tasks, delete rule nullify)"), "\(lines)")
        XCTAssertTrue(lines.contains("    tags → Tag (to-many, inverse tasks, delete rule nullify)"), "\(lines)")
        XCTAssertTrue(lines.contains("  _persistkit_join_Tag_tasks  1 link"), "\(lines)")
        XCTAssertTrue(lines.contains("  _persistkit_fk_Task_project on Task(project)"), "\(lines)")
        XCTAssertTrue(lines.contains("  _persistkit_unique_Tag_0 on Tag(name), unique"), "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("  ") && $0.contains(" transactions, oldest #1 (") }, "\(lines)")
        XCTAssertEqual(storeBytes(url), before, "info changes nothing")
    }

    func testInfoAsJSON() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("tasks.sqlite")
        try ToolStores.writeTaskStore(at: url)
        let output = try ToolRunner.ok("info", url.path, "--json").stdout
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        XCTAssertEqual(object["modelVersion"] as? Int, TaskStore.modelVersion)
        XCTAssertEqual(object["modelDocumentRecorded"] as? Bool, true)
        let entities = try XCTUnwrap(object["entities"] as? [[String: Any]])
        XCTAssertEqual(entities.first { $0["name"] as? String == "Task" }?["rows"] as? Int, 3)
        XCTAssertGreaterThan((object["history"] as? [String: Any])?["transactions"] as? Int ?? 0, 0)
    }

    func testAVersion1StoreIsReadWithItsOwnModel() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("old.sqlite")
        try ToolStores.writeVersion1Store(at: url, count: 5)
        let before = storeBytes(url)
        let lines = try ToolRunner.ok("info", url.path).lines
        XCTAssertTrue(lines.contains { $0.hasPrefix("  model version 1, hash ") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("  Task ") && $0.hasSuffix(" 5 rows") }, "\(lines)")
        XCTAssertTrue(lines.contains("    name: string, notes: string?, due: date?, isComplete: boolean, createdAt: date"), "\(lines)")
        XCTAssertFalse(lines.contains { $0.contains("Project") }, "version 1 has no projects")
        XCTAssertEqual(storeBytes(url), before)
    }

    func testAStoreWithoutItsModelDocumentShowsItsTables() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("legacy.sqlite")
        try ToolStores.writeVersion1Store(at: url, count: 2)
        try ToolStores.runRawSQL("DELETE FROM _persistkit_metadata WHERE key IN ('modelDocument', 'modelVersion')", on: url)
        let lines = try ToolRunner.ok("info", url.path).lines
        XCTAssertTrue(lines.contains { $0.contains("model version 1 (not recorded)") && $0.contains("model document not recorded") }, "\(lines)")
        XCTAssertTrue(lines.contains("Tables"), "\(lines)")
        XCTAssertTrue(lines.contains("  Task  2 rows"), "\(lines)")
        let fetch = try ToolRunner.fails("fetch", url.path, "Task", status: 1)
        XCTAssertTrue(fetch.stderr.contains("records no model document"), fetch.stderr)
    }

    func testFilesThatAreNotStoresAreOneLineErrors() throws {
        let directory = TemporaryDirectory()
        let missing = try ToolRunner.fails("info", directory.file("missing.sqlite").path, status: 1)
        XCTAssertEqual(missing.stderr, "persistkit: \(directory.file("missing.sqlite").path) does not exist\n")
        let text = directory.file("notes.txt")
        try Data(repeating: 65, count: 5_000).write(to: text)
        let notADatabase = try ToolRunner.fails("info", text.path, status: 1)
        XCTAssertTrue(notADatabase.stderr.contains("is not a database"), notADatabase.stderr)
        XCTAssertEqual(try Data(contentsOf: text), Data(repeating: 65, count: 5_000))
    }

    func testUsageErrorsExit64AndHelpHasExamples() throws {
        let usage = try ToolRunner.fails("info", status: 64)
        XCTAssertTrue(usage.stderr.hasPrefix("persistkit: missing expected argument '<store>'"), usage.stderr)
        try ToolRunner.fails("bogus", status: 64)
        let help = try ToolRunner.ok("--help").stdout
        XCTAssertTrue(help.contains("Examples:") && help.contains("persistkit fetch tasks.sqlite Task --where"), help)
        for command in ["info", "check", "fetch", "history", "model diff"] {
            let text = try ToolRunner.run(command.split(separator: " ").map(String.init) + ["--help"]).stdout
            XCTAssertTrue(text.contains("Examples:"), "\(command) --help: \(text)")
        }
    }
}
