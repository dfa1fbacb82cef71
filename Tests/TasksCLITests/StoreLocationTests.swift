import Foundation
import XCTest

/// Where the store is: --store, else $TASKS_STORE, else $XDG_DATA_HOME/tasks/tasks.sqlite,
/// else ~/.local/share/tasks/tasks.sqlite; the directory is created.
final class StoreLocationTests: XCTestCase {
    private func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    func testStoreOptionWinsOverEnvironment() throws {
        let fixture = try CLIFixture()
        let chosen = fixture.directory.appendingPathComponent("chosen/deeper/mine.sqlite")
        try fixture.ok("add", "Here", "--store", chosen.path)
        XCTAssertTrue(exists(chosen), "--store's directories are created")
        XCTAssertFalse(exists(fixture.storeURL), "TASKS_STORE is not used when --store is given")
    }

    func testTasksStoreVariable() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        XCTAssertTrue(exists(fixture.storeURL))
    }

    func testXDGDataHome() throws {
        let fixture = try CLIFixture()
        let dataHome = fixture.directory.appendingPathComponent("xdg")
        try fixture.ok("list", environment: ["TASKS_STORE": nil, "XDG_DATA_HOME": dataHome.path])
        XCTAssertTrue(exists(dataHome.appendingPathComponent("tasks/tasks.sqlite")))
        XCTAssertFalse(exists(fixture.storeURL))
    }

    func testHomeDefault() throws {
        let fixture = try CLIFixture()
        let home = fixture.directory.appendingPathComponent("home")
        try fixture.ok("list", environment: ["TASKS_STORE": nil, "XDG_DATA_HOME": nil])
        XCTAssertTrue(exists(home.appendingPathComponent(".local/share/tasks/tasks.sqlite")))
        // A relative XDG_DATA_HOME is ignored, as the XDG specification says.
        let other = try CLIFixture()
        try other.ok("list", environment: ["TASKS_STORE": nil, "XDG_DATA_HOME": "relative/xdg"])
        XCTAssertTrue(exists(other.directory.appendingPathComponent("home/.local/share/tasks/tasks.sqlite")))
        XCTAssertFalse(exists(other.directory.appendingPathComponent("relative")))
    }
}
