import Foundation
import PersistKit
import PersistKitTestSupport
import XCTest

/// `tasks sync`, run as a user would: one round prints one line; `--watch` keeps syncing, and
/// a `tasks watch` on the other store shows what the first one added; an unreachable server
/// is one line on standard error and loses nothing.
final class TasksSyncCommandTests: SyncTestCase {
    private var cli: TasksCLI {
        get throws { TasksCLI(directory: directory, serverURL: try serverURL()) }
    }

    /// Runs tasks with a store in the test's directory; returns (status, stdout, stderr).
    @discardableResult
    private func tasks(_ store: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try cli.run(store, arguments)
    }

    private func start(_ store: String, _ arguments: [String], stdout: URL, stderr: URL) throws -> Process {
        try cli.start(store, arguments, stdout: stdout, stderr: stderr)
    }

    func testOneRoundPrintsOneLineAndTheOtherStoreGetsTheTasks() throws {
        try tasks("a", ["add", "Buy milk", "--tag", "errands"])
        let pushed = try tasks("a", ["sync", "--space", "home"])
        XCTAssertEqual(pushed.status, 0, pushed.err)
        XCTAssertTrue(pushed.out.hasPrefix("Synced home: sent "), pushed.out)
        XCTAssertEqual(pushed.out.split(separator: "\n").count, 1)
        let pulled = try tasks("b", ["sync", "--space", "home"])
        XCTAssertEqual(pulled.status, 0, pulled.err)
        // B sends only its new store record (which merges into A's), and receives A's tasks.
        XCTAssertTrue(pulled.out.hasPrefix("Synced home: sent 1 change, received "), pulled.out)
        let list = try tasks("b", ["list"])
        XCTAssertTrue(list.out.contains("Buy milk"), list.out)
        XCTAssertTrue(list.out.contains("#errands"), list.out)
        XCTAssertEqual(try cli.listWithoutNumbers("b"), try cli.listWithoutNumbers("a"), "B holds A's tasks (A's examples too)")
        // A store whose first command is a sync gets no examples of its own.
        XCTAssertEqual(try tasks("c", ["sync", "--space", "empty"]).status, 0)
        XCTAssertFalse(try tasks("c", ["list"]).out.contains("Call mom"))
    }

    func testAnUnreachableServerIsOneLineAndLosesNothing() throws {
        try tasks("a", ["add", "Written offline"])
        let failed = try tasks("a", ["sync", "--server", "postgres://nobody@127.0.0.1:1/none?sslmode=disable", "--space", "home"])
        XCTAssertEqual(failed.status, 1)
        XCTAssertEqual(failed.out, "")
        XCTAssertEqual(failed.err.split(separator: "\n").count, 1, failed.err)
        XCTAssertTrue(failed.err.hasPrefix("tasks: Cannot reach the sync server"), failed.err)
        XCTAssertTrue(failed.err.contains("local changes stay queued"), failed.err)
        XCTAssertEqual(try tasks("a", ["sync", "--space", "home"]).status, 0)
        try tasks("b", ["sync", "--space", "home"])
        XCTAssertTrue(try tasks("b", ["list"]).out.contains("Written offline"))
    }

    /// `tasks sync --watch` on B keeps B in sync; a `tasks watch` on B shows the task A adds.
    func testWatchShowsATaskAddedOnTheOtherStore() throws {
        try tasks("a", ["sync", "--space", "home"])
        try tasks("b", ["sync", "--space", "home"])
        let syncOut = directory.file("sync.out"), syncErr = directory.file("sync.err")
        let watchOut = directory.file("watch.out"), watchErr = directory.file("watch.err")
        for file in [syncOut, syncErr, watchOut, watchErr] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let syncing = try start("b", ["sync", "--space", "home", "--watch"], stdout: syncOut, stderr: syncErr)
        let watching = try start("b", ["watch"], stdout: watchOut, stderr: watchErr)
        defer {
            for process in [syncing, watching] where process.isRunning { process.interrupt() }
        }
        usleep(500_000)
        try tasks("a", ["add", "Added on A"])
        try tasks("a", ["sync", "--space", "home"])
        let deadline = Date().addingTimeInterval(20)
        var seen = ""
        while Date() < deadline {
            seen = (try? String(contentsOf: watchOut, encoding: .utf8)) ?? ""
            if seen.contains("\"Added on A\"") { break }
            usleep(50_000)
        }
        XCTAssertTrue(seen.contains("+ #") && seen.contains("\"Added on A\""), "tasks watch on B: \(seen)")
        syncing.interrupt()
        watching.interrupt()
        while syncing.isRunning || watching.isRunning { usleep(10_000) }
        XCTAssertEqual(syncing.terminationStatus, 0, (try? String(contentsOf: syncErr, encoding: .utf8)) ?? "")
        let rounds = try String(contentsOf: syncOut, encoding: .utf8)
        XCTAssertTrue(rounds.contains("received 1"), rounds)
    }
}
