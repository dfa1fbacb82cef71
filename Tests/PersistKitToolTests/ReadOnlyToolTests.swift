import Foundation
import PersistKit
import PersistKitTestSupport
import TaskModel
import XCTest

/// The tool never changes a store: after every command, on a store at rest and on one an
/// application has open (its write-ahead log in use), the store's bytes are as they were.
final class ReadOnlyToolTests: XCTestCase {
    private func commands(_ path: String) -> [[String]] {
        [["info", path], ["info", path, "--json"], ["check", path], ["fetch", path, "Task"],
         ["fetch", path, "Task", "--where", "name CONTAINS 'a'", "--json"], ["history", path], ["history", path, "--json"]]
    }

    func testNoCommandChangesAStoreAtRest() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("tasks.sqlite")
        try ToolStores.writeTaskStore(at: url)
        let before = try Data(contentsOf: url)
        for arguments in commands(url.path) {
            let result = try ToolRunner.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertEqual(try Data(contentsOf: url), before, "persistkit \(arguments.joined(separator: " ")) changed the store")
            let wal = (try? Data(contentsOf: URL(fileURLWithPath: url.path + "-wal"))) ?? Data()
            XCTAssertEqual(wal.count, 0, "nothing was written to a write-ahead log")
        }
    }

    func testNoCommandChangesAStoreAnApplicationHasOpen() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("tasks.sqlite")
        try ToolStores.writeTaskStore(at: url)
        let container = try PersistentContainer(model: TaskStore.makeModel(), store: .sqlite(url))
        let context = container.newContext()
        let task = try XCTUnwrap(context.fetch(FetchRequest<TaskItem>()).first)
        task.name = "changed while open"
        try context.save()
        let before = storeBytes(url)
        XCTAssertGreaterThan(try Data(contentsOf: URL(fileURLWithPath: url.path + "-wal")).count, 0, "the save is in the log")
        for arguments in commands(url.path) {
            let result = try ToolRunner.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertEqual(storeBytes(url), before, "persistkit \(arguments.joined(separator: " ")) changed the store or its log")
        }
        let fetched = try ToolRunner.ok("fetch", url.path, "Task", "--where", "name == 'changed while open'").lines
        XCTAssertEqual(fetched.last, "(1 object)", "the tool reads what is in the log")
    }

    /// A store written before stores recorded their model stays without it: the tool reads
    /// only, so it is the application's next save that records it.
    func testAStoreWithoutItsDocumentStaysWithout() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("legacy.sqlite")
        try ToolStores.writeVersion1Store(at: url, count: 3)
        try ToolStores.runRawSQL("DELETE FROM _persistkit_metadata WHERE key IN ('modelDocument', 'modelVersion')", on: url)
        let before = try Data(contentsOf: url)
        try ToolRunner.ok("info", url.path)
        try ToolRunner.ok("check", url.path)
        XCTAssertEqual(try Data(contentsOf: url), before)
    }
}
