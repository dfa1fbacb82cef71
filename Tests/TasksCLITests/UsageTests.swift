import Foundation
import XCTest

/// Usage mistakes get one clear line and exit status 64; `--version` says which tasks this is.
final class UsageTests: XCTestCase {
    private let commands = "list, add, show, edit, done, undo, rm, projects, project, tags, tag, today, plan, unplan, backlog, "
        + "review, limits, stats, attach, attachments, attachment, detach, export, import, watch, sync"

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

    /// 64 for bad usage (a malformed date, name or reference), 1 for a command that failed.
    func testExitCodes() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        let cases: [([String], Int32)] = [
            (["add", "x", "--due", "someday"], 64), (["done", "abc"], 64), (["show", "-3"], 64), (["nope"], 64),
            (["--bogus"], 64), (["done", "9999"], 1), (["import", "missing.json"], 1), (["add", " "], 64),
        ]
        for (arguments, status) in cases {
            let result = try fixture.run(arguments)
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.isEmpty, "\(arguments): a failure says why")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
    }

    /// Issue 25, item 6: `add` takes only what applies to a new task: nothing to take away.
    func testAddTakesOnlyWhatAppliesToANewTask() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        for (option, suggestion) in [("--no-project", "; did you mean '--project'?"), ("--no-remind", "; did you mean '--remind'?"),
                                     ("--no-due", "; did you mean '--due'?")] {
            try fixture.fails(["add", "x", option], status: 64, message: "unknown option '\(option)'\(suggestion) (see tasks add --help)")
        }
        try fixture.fails(["add", "x", "--untag", "y"], status: 64,
                          message: "unknown option '--untag'; did you mean '--tag'? (see tasks add --help)")
        let addHelp = try fixture.ok("add", "--help").stdout
        let editHelp = try fixture.ok("edit", "--help").stdout
        for option in ["--no-project", "--untag", "--no-remind", "--no-due"] {
            XCTAssertFalse(addHelp.contains(option), "add --help offers \(option)")
            XCTAssertTrue(editHelp.contains(option), "edit --help lacks \(option)")
        }
    }

    /// Issue 25, item 7: a malformed name is bad usage (64), like a malformed date, and is
    /// refused before the store is opened; a name taken by another project is a failure (1).
    func testMalformedNamesAreBadUsage() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let task = try fixture.add("Call mom", "--project", "Home", "--tag", "phone")
        try fixture.add("Write", "--project", "Work")
        let cases: [([String], String)] = [
            (["add", "  "], "a task's name cannot be empty"),
            (["add", "x", "--tag", "two words"], "a tag's name cannot contain spaces"),
            (["add", "x", "--project", ""], "a project's name cannot be empty"),
            (["edit", String(task), "--name", "two\nlines"], "a task's name must be one line"),
            (["edit", String(task), "--tag", "#"], "a tag's name cannot be empty"),
            (["project", "rename", "Home", " "], "a project's name cannot be empty"),
            (["tag", "rename", "phone", "mobile phone"], "a tag's name cannot contain spaces"),
        ]
        for (arguments, message) in cases {
            try fixture.fails(arguments, status: 64, message: message)
        }
        try fixture.fails(["project", "rename", "Home", "work"], status: 1, message: "a project named \"Work\" already exists")
        let missing = try CLIFixture()
        XCTAssertEqual(try missing.run(["add", "x", "--tag", "two words"]).status, 64)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.storeURL.path), "refused before the store is made")
    }
}
