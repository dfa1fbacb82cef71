import Foundation
import XCTest

/// Colour only when standard output is a terminal and NO_COLOR is not set.
final class ColourTests: XCTestCase {
    /// Runs `tasks list` with a pseudo-terminal as standard output, through util-linux's
    /// `script`; skips the test where it is missing.
    private func listOnTerminal(_ fixture: CLIFixture, environment extra: [String: String?]) throws -> String {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: script.path), "needs /usr/bin/script for a terminal")
        let binary = try XCTUnwrap(TasksBinary.url)
        let process = Process()
        process.executableURL = script
        process.arguments = ["-qec", "'\(binary.path)' list", "/dev/null"]
        process.environment = fixture.environment(extra)
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self)
    }

    func testColourOnATerminal() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        let text = try listOnTerminal(fixture, environment: [:])
        XCTAssertTrue(text.contains("\u{1B}[1mIncomplete ("), text)
    }

    func testNoColourWithNO_COLOR() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        let text = try listOnTerminal(fixture, environment: ["NO_COLOR": "1"])
        XCTAssertTrue(text.contains("Incomplete ("), text)
        XCTAssertFalse(text.contains("\u{1B}["), text)
    }

    /// no-color.org: only a NO_COLOR that is set and not empty turns colour off.
    func testEmptyNO_COLORKeepsColour() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        let text = try listOnTerminal(fixture, environment: ["NO_COLOR": ""])
        XCTAssertTrue(text.contains("\u{1B}[1mIncomplete ("), text)
    }

    func testNoColourInAPipe() throws {
        let fixture = try CLIFixture()
        XCTAssertFalse(try fixture.ok("list").stdout.contains("\u{1B}["))
    }
}
