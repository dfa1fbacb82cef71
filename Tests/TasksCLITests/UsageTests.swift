import Foundation
import XCTest

/// Usage mistakes get one clear line and exit status 64; `--version` says which tasks this is.
final class UsageTests: XCTestCase {
    private let commands = "list, add, show, edit, done, undo, rm, projects, project, tags, tag, stats, export, import, watch"

    func testNegativeReferenceIsABadReference() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        for arguments in [["show", "-1"], ["done", "-5"], ["undo", "-5"], ["rm", "1", "-2"], ["edit", "-1", "--name", "x"],
                          ["show", "--store", fixture.storeURL.path, "-1"]] {
            let reference = arguments.first { $0.hasPrefix("-") && $0.dropFirst().allSatisfy(\.isNumber) } ?? "?"
            try fixture.fails(arguments, status: 64, message: "'\(reference)' is not a task reference (try 12 or '#12')")
        }
    }

    func testUnknownCommandIsNamedAndCommandsListed() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        try fixture.fails(["frobnicate"], status: 64, message: "unknown command 'frobnicate' (commands: \(commands))")
        try fixture.fails(["frobnicate", "1", "--json"], status: 64, message: "unknown command 'frobnicate' (commands: \(commands))")
        try fixture.fails(["12"], status: 64, message: "unknown command '12' (commands: \(commands))")
        // Options still go to the default command, and `help` is argument-parser's.
        XCTAssertEqual(try fixture.ok("--incomplete").lines.first?.hasPrefix("Incomplete ("), true)
        XCTAssertTrue(try fixture.ok("help", "add").stdout.contains("USAGE: tasks add"))
    }

    func testVersion() throws {
        let fixture = try CLIFixture()
        let result = try fixture.ok("--version")
        XCTAssertNotNil(result.stdout.range(of: #"^[0-9]+\.[0-9]+\.[0-9]+\n$"#, options: .regularExpression), result.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.storeURL.path), "--version opens no store")
    }

    /// 64 for bad usage (a malformed date or reference), 1 for a command that failed.
    func testExitCodes() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        let cases: [([String], Int32)] = [
            (["add", "x", "--due", "someday"], 64), (["done", "abc"], 64), (["show", "-3"], 64), (["nope"], 64),
            (["--bogus"], 64), (["done", "9999"], 1), (["import", "missing.json"], 1), (["add", " "], 1),
        ]
        for (arguments, status) in cases {
            let result = try fixture.run(arguments)
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.isEmpty, "\(arguments): a failure says why")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
    }
}
