import Foundation
import PersistKitTestSupport
import XCTest

/// The entry point of child processes (see `ChildProcess`), and a check that one can be started.
final class ChildProcessTests: XCTestCase {
    /// In a child: plays the role the environment names, then exits with its status. In the
    /// test run itself: starts a child that answers "pong", so that a broken way of starting
    /// children fails here, plainly, rather than as odd failures of the tests that use them.
    func testChildRole() throws {
        if let role = ChildProcess.role {
            exit(Self.play(role))
        }
        let directory = TemporaryDirectory()
        let report = directory.file("ping-report").path
        let child = try ChildProcess.start(role: "ping", settings: ["REPORT": report])
        XCTAssertTrue(ChildProcess.wait(for: child, timeout: 60), "the child ends by itself")
        XCTAssertEqual(child.terminationReason, .exit)
        XCTAssertEqual(child.terminationStatus, 0)
        XCTAssertEqual(ChildProcess.awaitReport(at: report, until: Date()), "pong")
    }

    private static func play(_ role: String) -> Int32 {
        switch role {
        case "ping":
            guard let report = ChildProcess.setting("REPORT") else { return 2 }
            ChildProcess.report("pong", to: report)
            return 0
        case StoreCreationCrashTests.childRole:
            return StoreCreationCrashTests.playChild()
        case StoreCreationRaceTests.childRole:
            return StoreCreationRaceTests.playChild()
        case MigrationCrashTests.childRole:
            return MigrationCrashTests.playChild()
        case HistoryReplayOracleTests.childRole:
            return HistoryReplayOracleTests.playChild()
        case TwoProcessCounterTests.childRole:
            return TwoProcessCounterTests.playChild()
        case SaveCrashTests.childRole:
            return SaveCrashTests.playChild()
        case BatchMergeTests.childRole:
            return BatchMergeTests.playChild()
        case BatchedFetchMemoryTests.childRole:
            return BatchedFetchMemoryTests.playChild()
        case ExternalStorageCrashTests.childRole:
            return ExternalStorageCrashTests.playChild()
        default:
            return 3
        }
    }
}
