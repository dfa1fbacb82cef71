import Foundation
import XCTest

/// List columns line up on a terminal whatever the script: padding counts display columns
/// (a CJK character or an emoji takes two, a combining accent none), not characters.
final class AlignmentTests: XCTestCase {
    func testColumnsAlignWithWideAndCombiningCharacters() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let names = ["牛乳を買う", "Buy milk", "Party 🎉", "Cafe\u{301}", "👩‍👩‍👧 dinner"]
        for name in names { try fixture.add(name, "--due", "2030-01-02", "--notes", "note") }
        let rows = Array(try fixture.ok("list").lines.dropFirst().prefix(names.count))
        XCTAssertEqual(rows.count, names.count)
        // A family joined by U+200D is one emoji, two columns; the accent combines with its e.
        let widths = ["牛乳を買う": 10, "Buy milk": 8, "Party 🎉": 8, "Cafe\u{301}": 4, "👩‍👩‍👧 dinner": 9]
        let column = try XCTUnwrap(widths.values.max())
        for (row, name) in zip(rows, names) {
            // After the name: padding to the widest name, then two spaces before the due date.
            let padding = String(repeating: " ", count: column - (widths[name] ?? 0) + 2)
            let expected = "[ ] " + name + padding
            XCTAssertTrue(row.contains(expected), "\(row) should contain \(expected.debugDescription)")
            XCTAssertFalse(row.contains(expected + " "), "too much padding in \(row)")
        }
    }
}
