import Foundation
import PersistKit
import PersistKitTestSupport
import TaskModel
import XCTest

/// Upgrading a large store and importing a large file take a while: on a terminal `tasks` draws
/// a progress bar on standard error meanwhile (piped, nothing: UpgradeTests and ExportImportTests
/// hold standard error to its one line, or to nothing).
final class ProgressTests: XCTestCase {
    /// Runs `tasks` on a pseudo-terminal, returning everything it showed.
    private func runOnTerminal(_ fixture: CLIFixture, _ arguments: [String]) throws -> (status: Int32, text: String) {
        try PersistKitTestSupport.runOnTerminal(try XCTUnwrap(TasksBinary.url), arguments, environment: fixture.environment(["NO_COLOR": "1"]))
    }

    func testAnImportShowsProgressOnATerminal() throws {
        let fixture = try CLIFixture()
        let source = fixture.directory.appendingPathComponent("source.sqlite")
        let store = try TaskStore(url: source)
        for index in 0..<300 { _ = try store.add(name: "Task \(index)", TaskChanges()) }
        let file = fixture.directory.appendingPathComponent("export.json")
        try store.exportDocument().write(to: file)
        let (status, text) = try runOnTerminal(fixture, ["import", file.path])
        XCTAssertEqual(status, 0, text)
        XCTAssertTrue(text.contains("% adding tasks") && text.contains("% saving 300 tasks"), text.debugDescription)
        XCTAssertTrue(text.contains("Imported 300 tasks"), text)
    }

    func testTheUpgradeShowsProgressOnATerminal() throws {
        let fixture = try CLIFixture()
        try FileManager.default.createDirectory(at: fixture.storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        let container = try PersistentContainer(model: try TaskModelV1.makeModel(), store: .sqlite(fixture.storeURL))
        let context = container.newContext()
        _ = TaskModelV1.StoreInfo(context: context)
        for index in 0..<500 {
            TaskModelV1.TaskItem(context: context).name = "Task \(index) #errands"
        }
        try context.save()
        let (status, text) = try runOnTerminal(fixture, ["list", "--incomplete"])
        XCTAssertEqual(status, 0, text)
        XCTAssertTrue(text.contains("\r\u{1B}[K[") && text.contains("% upgrading to version \(TaskStore.modelVersion)"), text.debugDescription)
        XCTAssertTrue(text.contains("Upgraded tasks.sqlite to version \(TaskStore.modelVersion) (500 tasks)"), text)
    }
}
