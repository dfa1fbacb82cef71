import Foundation
import XCTest

/// This test binary started again as a child that plays one role: it runs only
/// `SyncChildTests/testChildRole`, which reads its role and settings from the environment.
/// A child reports through its exit, never pipes, so a killed child blocks nothing.
///
/// Children are started with `posix_spawn` and reaped with `waitpid`: Foundation's `Process`
/// does not always notice the end of a child started from an async test.
enum SyncChild {
    static let roleVariable = "PERSISTKIT_SYNC_CHILD_ROLE"
    private static let settingPrefix = "PERSISTKIT_SYNC_CHILD_"

    static var role: String? { ProcessInfo.processInfo.environment[roleVariable] }

    static func setting(_ key: String) -> String? { ProcessInfo.processInfo.environment[settingPrefix + key] }

    /// A started child.
    struct Child {
        let pid: pid_t
    }

    /// How a child ended.
    enum Ending: Equatable {
        case exited(Int32)
        case killed(Int32)
    }

    /// Starts a child playing `role` with `settings`.
    static func start(role: String, settings: [String: String]) throws -> Child {
        let executable = try XCTUnwrap(Bundle.main.executableURL, "no test executable to start again").path
        var environment = ProcessInfo.processInfo.environment
        environment[roleVariable] = role
        for (key, value) in settings { environment[settingPrefix + key] = value }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let arguments: [String] = [executable, "PersistKitSyncTests.SyncChildTests/testChildRole"]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard status == 0 else { throw NSError(domain: "SyncChild", code: Int(status)) }
        return Child(pid: pid)
    }

    /// Waits for `child` to end (killing it after `timeout` seconds); how it ended, or nil
    /// when it had to be killed.
    @discardableResult
    static func wait(for child: Child, timeout: TimeInterval) -> Ending? {
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while Date() < deadline {
            let reaped = waitpid(child.pid, &status, WNOHANG)
            if reaped == child.pid { return ending(status) }
            usleep(1_000)
        }
        kill(child.pid, SIGKILL)
        while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
        return nil
    }

    private static func ending(_ status: Int32) -> Ending {
        (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .killed(status & 0x7f)
    }
}
