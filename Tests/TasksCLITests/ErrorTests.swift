import Foundation
import XCTest

/// Every error: one line on standard error, exit 1 for a failed command and 64 for bad usage,
/// no stack trace, and the store unchanged.
final class ErrorTests: XCTestCase {
    func testUnknownReference() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        for command in ["done", "undo", "show", "rm"] {
            try fixture.fails([command, "42"], status: 1, message: "no task #42")
        }
        try fixture.fails(["edit", "#42", "--name", "x"], status: 1, message: "no task #42")
    }

    func testMalformedReference() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        try fixture.fails(["done", "abc"], status: 64, message: "'abc' is not a task reference (try 12 or '#12')")
        try fixture.fails(["rm", "1", "#x"], status: 64, message: "'#x' is not a task reference (try 12 or '#12')")
    }

    func testBadDate() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        let message = "'next friday' is not a date (try 2026-11-25, today, tomorrow, +3d, friday)"
        try fixture.fails(["add", "Party", "--due", "next friday"], status: 64, message: message)
        try fixture.fails(["edit", "1", "--due", "next friday"], status: 64, message: message)
        try fixture.fails(["add", "Party", "--due", "2026-02-30"], status: 64,
                          message: "'2026-02-30' is not a date (try 2026-11-25, today, tomorrow, +3d, friday)")
    }

    func testBadDateOnAMissingStoreCreatesNothing() throws {
        let fixture = try CLIFixture()
        let result = try fixture.run(["add", "Party", "--due", "someday"])
        XCTAssertEqual(result.status, 64)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.storeURL.path), "arguments are checked before the store is touched")
    }

    func testEmptyName() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        try fixture.fails(["add", " "], status: 64, message: "a task's name cannot be empty")
    }

    func testNameLongerThan1000Characters() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let longest = String(repeating: "x", count: 1_000)
        try fixture.fails(["add", longest + "y"], status: 64,
                          message: "a task's name can be at most 1,000 characters (this one has 1,001)")
        let number = try fixture.add(longest)
        try fixture.fails(["edit", String(number), "--name", longest + "yz"], status: 64,
                          message: "a task's name can be at most 1,000 characters (this one has 1,002)")
        XCTAssertEqual(try fixture.list().task(number)?.name, longest)
    }

    func testFileThatIsNotADatabase() throws {
        let fixture = try CLIFixture()
        let notes = fixture.directory.appendingPathComponent("notes.txt")
        let text = Data(String(repeating: "Buy milk, call mom, water the plants.\n", count: 200).utf8)
        try text.write(to: notes)
        for arguments in [["list"], ["add", "x"], ["export"]] {
            let result = try fixture.run(arguments + ["--store", "notes.txt"])
            XCTAssertEqual(result.status, 1)
            XCTAssertEqual(result.stderr, "tasks: notes.txt is not a task store (not a database)\n")
            XCTAssertEqual(result.stdout, "")
        }
        let fromEnvironment = try fixture.run(["list"], environment: ["TASKS_STORE": notes.path])
        XCTAssertEqual(fromEnvironment.stderr, "tasks: \(notes.path) is not a task store (not a database)\n")
        XCTAssertEqual(try Data(contentsOf: notes), text, "the file is untouched")
        let siblings = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path).filter { $0.hasPrefix("notes.txt") }
        XCTAssertEqual(siblings, ["notes.txt"], "no -wal or -shm file left beside it")
    }

    /// Makes an SQLite database with python3's sqlite3 module running `script` (`c` is the
    /// connection); skips the test where python3 is missing.
    private func makeDatabase(_ url: URL, _ script: String) throws {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); \(script); c.commit()", url.path]
        try python.run()
        python.waitUntilExit()
        try XCTSkipIf(python.terminationStatus != 0, "python3 with sqlite3 is needed to make a foreign database")
    }

    func testSQLiteDatabaseOfAnotherProgram() throws {
        let fixture = try CLIFixture()
        let other = fixture.directory.appendingPathComponent("other.sqlite")
        try makeDatabase(other, "c.execute('create table t(x)')")
        let before = try Data(contentsOf: other)
        let result = try fixture.run(["list", "--store", "other.sqlite"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "tasks: other.sqlite is not a task store (an SQLite database of another program)\n")
        XCTAssertEqual(try Data(contentsOf: other), before)
    }

    func testPersistKitStoreOfAnotherModel() throws {
        let fixture = try CLIFixture()
        let other = fixture.directory.appendingPathComponent("newer.sqlite")
        try makeDatabase(other, """
            c.execute('create table _persistkit_metadata (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)'); \
            c.executemany('insert into _persistkit_metadata values (?, ?)', [('formatVersion', '1'), \
            ('storeIdentifier', 'A1B2'), ('versionHash', 'not-this-model')])
            """)
        let before = try Data(contentsOf: other)
        let result = try fixture.run(["add", "x", "--store", "newer.sqlite"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "tasks: newer.sqlite was written with another model (another version of tasks, or another program); it was left untouched\n")
        XCTAssertEqual(try Data(contentsOf: other), before)
    }

    func testUnwritableDirectory() throws {
        // A regular file where a directory must be: unwritable even for root, unlike chmod.
        let fixture = try CLIFixture()
        let blocker = fixture.directory.appendingPathComponent("blocker")
        try Data("not a directory".utf8).write(to: blocker)
        let result = try fixture.run(["add", "x", "--store", "blocker/tasks/tasks.sqlite"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "tasks: cannot create the store's directory \(blocker.path)/tasks: \(blocker.path) is a file\n")
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(try Data(contentsOf: blocker), Data("not a directory".utf8))

        let direct = try fixture.run(["list"], environment: ["TASKS_STORE": blocker.appendingPathComponent("tasks.sqlite").path])
        XCTAssertEqual(direct.status, 1)
        XCTAssertEqual(direct.stderr, "tasks: cannot create the store's directory \(blocker.path): \(blocker.path) is a file\n")
    }

    func testStoreThatIsADirectory() throws {
        let fixture = try CLIFixture()
        try FileManager.default.createDirectory(at: fixture.directory.appendingPathComponent("folder"), withIntermediateDirectories: true)
        let result = try fixture.run(["list", "--store", "folder"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "tasks: folder is a directory, not a task store\n")
    }

    /// Issue 25, item 7: argument-parser's own usage errors are one line, `tasks: ...`, exit 64;
    /// the usage is for `--help`.
    func testOptionParsingErrorsAreOneLine() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        let cases: [([String], String)] = [
            (["list", "--bogus"], "unknown option '--bogus' (see tasks list --help)"),
            (["--bogus"], "unknown option '--bogus' (see tasks list --help)"),
            (["rm"], "missing expected argument '<ref> ...' (see tasks rm --help)"),
            (["list", "--incomplete", "--completed"], "--incomplete and --completed cannot be used together (see tasks list --help)"),
            (["add"], "missing expected argument '<name>' (see tasks add --help)"),
            (["show", "1", "2"], "unexpected argument '2' (see tasks show --help)"),
            (["edit", "5", "--notes", "-1"], "missing value for '--notes <notes>' (see tasks edit --help)"),
            (["project", "rename", "Home"], "missing expected argument '<new>' (see tasks project rename --help)"),
        ]
        for (arguments, message) in cases {
            try fixture.fails(arguments, status: 64, message: message)
        }
        let help = try fixture.ok("list", "--help")
        XCTAssertTrue(help.stdout.contains("USAGE: tasks list"), help.stdout)
    }
    /// Issue 25, item 10: a file error gives the system's reason, not Foundation's sentence
    /// ("The file doesn’t exist.", with its curly apostrophe).
    func testFileErrorsAreTheSystemsReasons() throws {
        let fixture = try CLIFixture()
        let result = try fixture.run(["list", "--store", "/proc/1/no-such-directory/tasks.sqlite"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "tasks: cannot create the store's directory /proc/1/no-such-directory: no such file or directory\n")
        XCTAssertTrue(result.stderr.unicodeScalars.allSatisfy(\.isASCII), result.stderr)
    }
}
