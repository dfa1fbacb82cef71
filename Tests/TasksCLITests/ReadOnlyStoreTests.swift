import PersistKitTestSupport
import Foundation
import XCTest

/// `tasks list` reads a store the user cannot write; a change is refused with one line.
///
/// Tests run as root, whom file permissions do not stop: the store and its directory are
/// made immutable with `chattr +i` (the test is skipped where that is unavailable).
final class ReadOnlyStoreTests: XCTestCase {
    func testListWorksOnAReadOnlyStoreAndChangesAreRefused() throws {
        let fixture = try CLIFixture()
        let tasks = try fixture.list().allTasks
        XCTAssertEqual(tasks.count, 4, "the example tasks")
        let storeDirectory = fixture.storeURL.deletingLastPathComponent()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: storeDirectory.path), ["tasks.sqlite"])
        let bytes = fixture.storeBytes()
        let immutable = try ImmutableFiles([fixture.storeURL, storeDirectory])
        defer { immutable.release() }

        XCTAssertEqual(try fixture.list().allTasks, tasks, "the same tasks, read-only")
        let text = try fixture.ok("list")
        XCTAssertTrue(text.stdout.contains("Buy milk"), text.stdout)
        let shown = try fixture.run(["show", String(tasks[0].ref)])
        XCTAssertEqual(shown.status, 0, shown.stderr)

        let readOnlyMessage = "the store \(fixture.storeURL.path) is read-only (the directory \(storeDirectory.path) is not writable): "
            + "nothing was saved"
        try fixture.fails(["add", "Read-only"], status: 1, message: readOnlyMessage)
        try fixture.fails(["done", String(tasks[0].ref)], status: 1,
                          message: readOnlyMessage)
        XCTAssertEqual(fixture.storeBytes(), bytes)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: storeDirectory.path), ["tasks.sqlite"], "nothing created")
    }
    /// Plain file permissions, as a user meets them: the store and its directory belong to
    /// root, and `tasks` runs as `nobody` (through setpriv; skipped unless the tests run as root).
    func testListWorksForAUserWhoCannotWriteTheStore() throws {
        let fixture = try CLIFixture()
        let tasks = try fixture.list().allTasks
        let storeDirectory = fixture.storeURL.deletingLastPathComponent()
        let bytes = fixture.storeBytes()

        let list = try runAsNobody(fixture, ["list", "--json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertEqual(try JSONDecoder().decode(ListOutput.self, from: Data(list.stdout.utf8)).allTasks, tasks)
        let add = try runAsNobody(fixture, ["add", "Not allowed"])
        XCTAssertEqual(add.status, 1)
        XCTAssertEqual(add.stderr, "tasks: the store \(fixture.storeURL.path) is read-only (the directory \(storeDirectory.path) "
                       + "is not writable): nothing was saved\n")
        XCTAssertEqual(fixture.storeBytes(), bytes)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: storeDirectory.path), ["tasks.sqlite"], "nothing created")
    }

    /// Runs `tasks` as the user `nobody`, with the fixture's environment.
    private func runAsNobody(_ fixture: CLIFixture, _ arguments: [String]) throws -> CLIResult {
        let setpriv = "/usr/bin/setpriv"
        try XCTSkipUnless(getuid() == 0 && FileManager.default.isExecutableFile(atPath: setpriv),
                          "running as another user needs root and setpriv")
        let binary = try XCTUnwrap(TasksBinary.url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: setpriv)
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path] + arguments
        process.environment = fixture.environment()
        process.currentDirectoryURL = fixture.directory
        let output = fixture.directory.appendingPathComponent("nobody-out-\(UUID().uuidString)")
        let errors = fixture.directory.appendingPathComponent("nobody-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        let out = try FileHandle(forWritingTo: output)
        let err = try FileHandle(forWritingTo: errors)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return CLIResult(status: process.terminationStatus,
                         stdout: String(decoding: try Data(contentsOf: output), as: UTF8.self),
                         stderr: String(decoding: try Data(contentsOf: errors), as: UTF8.self))
    }
}
