import Foundation
import PersistKitTestSupport
import XCTest

/// This test binary started again as a child process that plays one role (see
/// `ChildProcessTests`): the child runs only `ChildProcessTests/testChildRole`, which finds
/// its role and settings in the environment, does its part, and exits.
///
/// A child reports through files (its settings name them), never through pipes, so that a
/// child killed at any moment cannot block the parent.
enum ChildProcess {
    /// The environment variable holding the role; set only in children.
    static let roleVariable = "PERSISTKIT_CHILD_ROLE"
    private static let settingPrefix = "PERSISTKIT_CHILD_"

    /// Long generated tests scale down when CI=true.
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// The role this process plays, when it is a child.
    static var role: String? { ProcessInfo.processInfo.environment[roleVariable] }

    /// A setting the parent gave this child (`settings[key]` of ``start(role:settings:)``).
    static func setting(_ key: String) -> String? {
        ProcessInfo.processInfo.environment[settingPrefix + key]
    }

    /// Starts a child playing `role`; each of `settings` reaches it through ``setting(_:)``.
    static func start(role: String, settings: [String: String]) throws -> Process {
        let process = Process()
        let filter = "PersistKitTests.ChildProcessTests/testChildRole"
        #if os(Linux)
        // The test runner is an executable that takes the test to run as its argument.
        process.executableURL = try XCTUnwrap(Bundle.main.executableURL, "no test executable to start again")
        process.arguments = [filter]
        #else
        let bundle = try XCTUnwrap(Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }, "no .xctest bundle")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xcrun")
        process.arguments = ["xctest", "-XCTest", filter, bundle.bundlePath]
        #endif
        var environment = ProcessInfo.processInfo.environment
        environment[roleVariable] = role
        for (key, value) in settings { environment[settingPrefix + key] = value }
        process.environment = environment
        // XCTest's own chatter is not the child's report.
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Writes a child's report so that a reader never sees half of it.
    static func report(_ text: String, to path: String) {
        let temporary = path + ".partial"
        _ = FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8))
        _ = rename(temporary, path)
    }

    /// The report at `path`, once it exists; nil if `deadline` passes first.
    static func awaitReport(at path: String, until deadline: Date) -> String? {
        repeat {
            if let data = FileManager.default.contents(atPath: path) { return String(decoding: data, as: UTF8.self) }
            usleep(1_000)
        } while Date() < deadline
        return nil
    }

    /// Waits for `process` to end (killing it after `timeout` seconds); true if it ended by itself.
    @discardableResult
    static func wait(for process: Process, timeout: TimeInterval = 120) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(1_000) }
        guard process.isRunning else { return true }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return false
    }
}
