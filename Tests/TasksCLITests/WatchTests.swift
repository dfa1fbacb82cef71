import Foundation
import XCTest

/// `tasks watch`: the list, then one line per change another process makes, until SIGINT.
final class WatchTests: XCTestCase {
    /// Standard output collected from a pipe as it arrives.
    private final class Collected: @unchecked Sendable {
        // @unchecked Sendable: `text` is only read and written while holding `lock`.
        private let lock = NSLock()
        private var text = ""

        func append(_ data: Data) {
            lock.lock()
            text += String(decoding: data, as: UTF8.self)
            lock.unlock()
        }

        var current: String {
            lock.lock()
            defer { lock.unlock() }
            return text
        }

        /// Waits until `predicate` holds for the text, or `timeout` passes.
        func wait(timeout: TimeInterval, until predicate: (String) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if predicate(current) { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return predicate(current)
        }
    }

    func testWatchSeesAnotherProcessesChangesAndStopsOnSIGINT() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let early = try fixture.add("Early", "--due", "2030-01-01")
        let late = try fixture.add("Late", "--due", "2030-12-01")

        let watch = Process()
        watch.executableURL = try XCTUnwrap(TasksBinary.url)
        watch.arguments = ["watch"]
        watch.environment = fixture.environment()
        let pipe = Pipe()
        watch.standardOutput = pipe
        let collected = Collected()
        pipe.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        try watch.run()
        defer { if watch.isRunning { watch.terminate() } }

        XCTAssertTrue(collected.wait(timeout: 10) { $0.contains("Complete (0)") }, "the list first: \(collected.current)")
        XCTAssertTrue(collected.current.hasPrefix("Incomplete (2)\n"), collected.current)

        let added = try fixture.add("Phone the bank", "--due", "2030-06-01")
        XCTAssertTrue(collected.wait(timeout: 2) { $0.contains("+ #\(added) \"Phone the bank\" into Incomplete at 2\n") },
                      "an insert line within 2 seconds: \(collected.current)")

        try fixture.ok("done", String(early))
        XCTAssertTrue(collected.wait(timeout: 2) { $0.contains("~ #\(early) moved to Complete 1\n") }, collected.current)

        try fixture.ok("edit", String(late), "--name", "Later")
        XCTAssertTrue(collected.wait(timeout: 2) { $0.contains("~ #\(late) \"Later\" changed\n") }, collected.current)

        try fixture.ok("rm", String(added))
        XCTAssertTrue(collected.wait(timeout: 2) { $0.contains("- #\(added)\n") }, collected.current)

        kill(watch.processIdentifier, SIGINT)
        let stopped = Date().addingTimeInterval(5)
        while watch.isRunning && Date() < stopped { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertFalse(watch.isRunning, "watch stops on SIGINT")
        pipe.fileHandleForReading.readabilityHandler = nil
        XCTAssertEqual(watch.terminationReason, .exit)
        XCTAssertEqual(watch.terminationStatus, 0)
    }

    /// Another process's one change is one line, merged from the store's history: the list
    /// is not refetched (the merge trace on standard error says so).
    func testAnotherProcessesOneChangeIsOneLineWithoutARefetch() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        var references: [Int64] = []
        for day in 1...30 { references.append(try fixture.add("Task \(day)", "--due", String(format: "2030-01-%02d", day))) }

        let watch = Process()
        watch.executableURL = try XCTUnwrap(TasksBinary.url)
        watch.arguments = ["watch"]
        watch.environment = fixture.environment(["TASKS_TRACE_MERGES": "1"])
        let output = Pipe(), errors = Pipe()
        watch.standardOutput = output
        watch.standardError = errors
        let collected = Collected(), traced = Collected()
        output.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        errors.fileHandleForReading.readabilityHandler = { handle in traced.append(handle.availableData) }
        try watch.run()
        defer { if watch.isRunning { watch.terminate() } }
        XCTAssertTrue(collected.wait(timeout: 10) { $0.contains("Complete (0)") }, collected.current)
        let listed = collected.current

        try fixture.ok("edit", String(references[9]), "--name", "Renamed")
        let renamed = "~ #\(references[9]) \"Renamed\" changed\n"
        XCTAssertTrue(collected.wait(timeout: 5) { $0.contains(renamed) }, collected.current)
        try fixture.ok("done", String(references[20]))
        let completed = "~ #\(references[20]) moved to Complete 1\n"
        XCTAssertTrue(collected.wait(timeout: 5) { $0.contains(completed) }, collected.current)
        XCTAssertTrue(traced.wait(timeout: 5) { $0.components(separatedBy: "\n").filter { $0.hasPrefix("watch: merged") }.count == 2 },
                      traced.current)

        // Each change is exactly one line, in order, and neither refetched the list.
        XCTAssertEqual(String(collected.current.dropFirst(listed.count)), renamed + completed)
        XCTAssertEqual(traced.current, "watch: merged 0 inserted, 1 updated, 0 deleted\n"
                       + "watch: merged 0 inserted, 1 updated, 0 deleted\n")

        kill(watch.processIdentifier, SIGINT)
        let stopped = Date().addingTimeInterval(5)
        while watch.isRunning && Date() < stopped { Thread.sleep(forTimeInterval: 0.02) }
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
        XCTAssertFalse(watch.isRunning, "watch stops on SIGINT")
    }

    func testWatchShowsControlCharactersEscaped() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let watch = Process()
        watch.executableURL = try XCTUnwrap(TasksBinary.url)
        watch.arguments = ["watch"]
        watch.environment = fixture.environment()
        let pipe = Pipe()
        watch.standardOutput = pipe
        let collected = Collected()
        pipe.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        try watch.run()
        defer { if watch.isRunning { watch.terminate() } }
        XCTAssertTrue(collected.wait(timeout: 10) { $0.contains("Complete (0)") }, collected.current)

        let added = try fixture.add("Clear \u{1B}[2J screen")
        let line = "+ #\(added) \"Clear \\u{1B}[2J screen\" into Incomplete at 1\n"
        XCTAssertTrue(collected.wait(timeout: 5) { $0.contains(line) }, collected.current)
        XCTAssertFalse(collected.current.contains("\u{1B}"), "no raw escape: \(collected.current)")

        kill(watch.processIdentifier, SIGINT)
        let stopped = Date().addingTimeInterval(5)
        while watch.isRunning && Date() < stopped { Thread.sleep(forTimeInterval: 0.02) }
        pipe.fileHandleForReading.readabilityHandler = nil
        XCTAssertFalse(watch.isRunning, "watch stops on SIGINT")
    }
}
