import Foundation
import XCTest

/// Every write is checked: output that cannot be written (a full disk: /dev/full) is an error
/// on standard error and exit status 1, never a silent loss.
final class OutputErrorTests: XCTestCase {
    private let noSpace = "no space left on device"

    private func devFull() throws -> FileHandle {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full")
        return try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/full"))
    }

    func testExportToAFullStandardOutputFails() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        let result = try fixture.run(["export"], standardOutput: try devFull())
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "tasks: cannot write to standard output: \(noSpace)\n")
    }

    func testEveryCommandChecksStandardOutput() throws {
        let fixture = try CLIFixture()
        let number = try fixture.add("Call mom")
        let commands = [["list"], ["list", "--json"], ["show", String(number)], ["show", String(number), "--json"],
                        ["add", "Buy milk"], ["edit", String(number), "--name", "Call dad"], ["done", String(number)],
                        ["undo", String(number)], ["rm", String(number)], ["--help"], ["--version"]]
        for arguments in commands {
            let result = try fixture.run(arguments, standardOutput: try devFull())
            XCTAssertEqual(result.status, 1, "\(arguments)")
            XCTAssertEqual(result.stderr, "tasks: cannot write to standard output: \(noSpace)\n", "\(arguments)")
        }
    }

    func testImportToAFullStandardOutputFails() throws {
        let fixture = try CLIFixture()
        let exported = try fixture.ok("export").stdout
        let result = try fixture.run(["import", "-", "--keep-duplicates"], input: Data(exported.utf8), standardOutput: try devFull())
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "tasks: cannot write to standard output: \(noSpace)\n")
    }

    /// The export file is /dev/full, reached through a link in the test's directory: a tasks
    /// that replaced the file it writes (as an atomic write does) then replaces only the link,
    /// never the device itself, even when the tests run as root.
    func testExportToAFullDeviceFails() throws {
        let fixture = try CLIFixture()
        _ = try devFull()
        try fixture.ok("list")
        let link = fixture.directory.appendingPathComponent("full.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/full")
        let result = try fixture.run(["export", "full.json"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "tasks: cannot write full.json: \(noSpace)\n")
        XCTAssertEqual(result.stdout, "", "no \"Exported\" for an export that was not written")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), "/dev/full",
                       "a device is written in place, never replaced by a file")
    }

    func testExportReplacesAFileWholeOrNotAtAll() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        let backup = fixture.directory.appendingPathComponent("backup.json")
        try Data("old backup".utf8).write(to: backup)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: backup.path)
        XCTAssertTrue(try fixture.ok("export", "backup.json").stdout.hasPrefix("Exported "))
        // The whole export: the same tasks as standard output gets (only exportedAt differs).
        let tasksOf = { (data: Data) in (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["tasks"] as? NSArray }
        let written = try XCTUnwrap(try tasksOf(try Data(contentsOf: backup)))
        XCTAssertEqual(written, try tasksOf(Data(try fixture.ok("export").stdout.utf8)))
        XCTAssertEqual(written.count, try fixture.list().allTasks.count)
        let permissions = try FileManager.default.attributesOfItem(atPath: backup.path)[.posixPermissions] as? Int
        XCTAssertEqual(permissions, 0o640, "the file keeps its permissions")

        try fixture.fails(["export", "missing/backup.json"], status: 1,
                          message: "cannot write missing/backup.json: no such file or directory")
        try fixture.fails(["export", "."], status: 1, message: "cannot write .: it is a directory")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path).filter { $0.hasPrefix(".") }
        XCTAssertEqual(leftovers, [], "no temporary file left behind")
    }

    func testWatchStopsWhenItsOutputFails() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        let watch = Process()
        watch.executableURL = try XCTUnwrap(TasksBinary.url)
        watch.arguments = ["watch"]
        watch.environment = fixture.environment()
        watch.standardOutput = try devFull()
        let errors = Pipe()
        watch.standardError = errors
        try watch.run()
        // It should stop at once; were it to go on watching, stop it rather than hang the suite.
        let deadline = Date().addingTimeInterval(20)
        while watch.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if watch.isRunning { watch.terminate() }
        watch.waitUntilExit()
        XCTAssertEqual(watch.terminationReason, .exit)
        XCTAssertEqual(watch.terminationStatus, 1)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(stderr, "tasks: cannot write to standard output: \(noSpace)\n")
    }
}
