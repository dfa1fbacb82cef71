import Foundation
import XCTest

/// `tasks --search TEXT`: name and notes, ignoring case and accents.
final class SearchTests: XCTestCase {
    func testSearch() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let eclair = try fixture.add("Buy an éclair")
        let notes = try fixture.add("Bakery", "--notes", "Two ECLAIRS please")
        try fixture.add("Call mom")
        XCTAssertEqual(try fixture.list("--search", "ÉCLAIR").allTasks.map(\.ref), [eclair, notes])
        let text = try fixture.ok("--search", "eclair").stdout
        XCTAssertTrue(text.contains("Buy an éclair") && text.contains("Bakery") && !text.contains("Call mom"), text)
        XCTAssertEqual(try fixture.list("--search", "nothing like this").allTasks, [])
        try fixture.ok("done", String(notes))
        XCTAssertEqual(try fixture.list("--search", "eclair", "--incomplete").allTasks.map(\.ref), [eclair])
    }
}
