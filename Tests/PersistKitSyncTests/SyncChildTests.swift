import Foundation
import XCTest

/// The entry point of the sync tests' child processes (see `SyncChild`), and a check that one
/// can be started.
final class SyncChildTests: XCTestCase {
    /// In a child: plays its role and exits. In the test run: starts a child that only exits,
    /// so that a broken way of starting children fails here, plainly.
    func testChildRole() throws {
        if let role = SyncChild.role {
            switch role {
            case "ping": exit(7)
            case SyncFaultTests.childRole: exit(SyncFaultTests.playChild())
            default: exit(3)
            }
        }
        let child = try SyncChild.start(role: "ping", settings: [:])
        XCTAssertEqual(SyncChild.wait(for: child, timeout: 60), .exited(7))
    }
}
