import Foundation
import XCTest

/// A `tasks` process left running (`tasks watch`), its standard output and error collected as
/// they come.
final class RunningTasks {
    private let process = Process()
    private let output = Collected()
    private let errors = Collected()
    private let outputPipe = Pipe()
    private let errorPipe = Pipe()

    /// Starts `tasks` with `arguments` on the fixture's store.
    init(_ fixture: CLIFixture, _ arguments: [String], environment extra: [String: String?] = [:],
         file: StaticString = #filePath, line: UInt = #line) throws {
        process.executableURL = try XCTUnwrap(TasksBinary.url, "the tasks binary is not built next to the tests", file: file, line: line)
        process.arguments = arguments
        process.environment = fixture.environment(extra)
        process.currentDirectoryURL = fixture.directory
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        let output = output, errors = errors
        outputPipe.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData) }
        errorPipe.fileHandleForReading.readabilityHandler = { handle in errors.append(handle.availableData) }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        outputPipe.fileHandleForReading.readabilityHandler = nil
        errorPipe.fileHandleForReading.readabilityHandler = nil
    }

    /// Standard output so far.
    var text: String { output.current }
    /// Standard error so far.
    var errorText: String { errors.current }

    /// Waits until `predicate` holds for the standard output, or `timeout` passes; whether it
    /// holds.
    func wait(timeout: TimeInterval, until predicate: (String) -> Bool) -> Bool {
        output.wait(timeout: timeout, until: predicate)
    }

    /// Waits until `predicate` holds for the standard error, or `timeout` passes.
    func waitForErrors(timeout: TimeInterval, until predicate: (String) -> Bool) -> Bool {
        errors.wait(timeout: timeout, until: predicate)
    }

    /// Sends SIGINT and waits (up to 5 seconds) for the process to end; its exit status, nil
    /// when it did not end (it is then terminated).
    @discardableResult
    func interrupt() -> Int32? {
        kill(process.processIdentifier, SIGINT)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard !process.isRunning else {
            process.terminate()
            return nil
        }
        // What it wrote last is in the pipe: read it before the handlers go.
        Thread.sleep(forTimeInterval: 0.05)
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }

    /// Text collected from a pipe, read and written under a lock.
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

        func wait(timeout: TimeInterval, until predicate: (String) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if predicate(current) { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return predicate(current)
        }
    }
}
