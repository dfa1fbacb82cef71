import Foundation
import XCTest

/// Names and notes with control characters are printed with them visible as `\u{XX}`, never
/// raw; JSON keeps the text exactly.
final class TerminalEscapeTests: XCTestCase {
    private let hostileName = "Pay \u{1B}[31mrent\u{1B}[0m\u{7}\u{9B}2J"
    private let shownName = "Pay \\u{1B}[31mrent\\u{1B}[0m\\u{07}\\u{9B}2J"

    private func assertNoControlCharacters(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let controls = text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
        XCTAssertTrue(controls.isEmpty, "raw control characters \(controls.map(\.value)) in \(text)", file: file, line: line)
    }

    func testNamesAndNotesAreEscapedInHumanOutput() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let added = try fixture.ok("add", hostileName, "--notes", "First \u{1B}]0;owned\u{7} line\r\nsecond\tline")
        let number = try XCTUnwrap(Int64(added.stdout.split(separator: " ")[1].dropFirst()))
        XCTAssertEqual(added.stdout, "Added #\(number) \"\(shownName)\"\n")

        let list = try fixture.ok("list").stdout
        assertNoControlCharacters(list)
        XCTAssertTrue(list.contains("[ ] \(shownName)  First \\u{1B}]0;owned\\u{07} line\n"), list)

        let show = try fixture.ok("show", String(number)).stdout
        assertNoControlCharacters(show)
        XCTAssertTrue(show.hasPrefix("#\(number) [ ] \(shownName)\n"), show)
        XCTAssertTrue(show.hasSuffix("Notes:\n  First \\u{1B}]0;owned\\u{07} line\n  second\\u{09}line\n"), show)

        let quoted = "#\(number) \"\(shownName)\"\n"
        XCTAssertEqual(try fixture.ok("done", String(number)).stdout, "Completed " + quoted)
        XCTAssertEqual(try fixture.ok("done", String(number)).stdout, quoted.dropLast() + " is already complete\n")
        XCTAssertEqual(try fixture.ok("undo", String(number)).stdout, "Reopened " + quoted)
        XCTAssertEqual(try fixture.ok("edit", String(number), "--notes", "").stdout, "Updated " + quoted)
        XCTAssertEqual(try fixture.ok("rm", String(number)).stdout, "Removed #\(number) \"\(shownName)\"\n")
    }

    func testJSONKeepsTheTextExactly() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let number = try fixture.add(hostileName, "--notes", "a\u{1B}b")
        let row = try XCTUnwrap(try fixture.list().task(number))
        XCTAssertEqual(row.name, hostileName)
        XCTAssertEqual(row.notes, "a\u{1B}b")
        let show = try fixture.ok("show", String(number), "--json").stdout
        XCTAssertTrue(show.contains(#""name" : "Pay \u001b[31mrent\u001b[0m\u0007"#), show)
    }

    func testErrorMessagesEscapeWhatTheyQuote() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        try fixture.fails(["done", "\u{1B}[2J"], status: 64, message: "'\\u{1B}[2J' is not a task reference (try 12 or '#12')")
    }
}
