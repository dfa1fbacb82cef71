import Foundation
import PersistKitTestSupport
import XCTest

/// `persistkit check`: a sound store passes; each kind of damage is one line and exit 1; the
/// store is never changed.
final class CheckCommandTests: XCTestCase {
    private func store(_ directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("tasks.sqlite")
        try ToolStores.writeTaskStore(at: url)
        return url
    }

    func testASoundStorePasses() throws {
        let directory = TemporaryDirectory()
        let url = try store(directory)
        let before = storeBytes(url)
        let result = try ToolRunner.ok("check", url.path)
        XCTAssertEqual(result.lines.count, 1)
        XCTAssertTrue(result.stdout.hasPrefix("\(url.path): no problems ("), result.stdout)
        XCTAssertTrue(result.stdout.contains("integrity, references, schema and values"), result.stdout)
        XCTAssertEqual(storeBytes(url), before)
    }

    func testAVersion1StorePasses() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("old.sqlite")
        try ToolStores.writeVersion1Store(at: url, count: 20)
        XCTAssertTrue(try ToolRunner.ok("check", url.path).stdout.contains("no problems"))
    }

    func testOrphanedReferencesSchemaDriftAndBadValuesAreEachALine() throws {
        let directory = TemporaryDirectory()
        let url = try store(directory)
        try ToolStores.runRawSQL("""
            UPDATE "Task" SET "project" = 999 WHERE "name" = 'Buy milk';
            UPDATE "Task" SET "priority" = 'urgent' WHERE "name" = 'Call mom';
            CREATE TABLE "Scratch" (x);
            """, on: url)
        let before = storeBytes(url)
        let result = try ToolRunner.run(["check", url.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "persistkit: \(url.path): 3 problems\n")
        XCTAssertEqual(result.lines.count, 3, result.stdout)
        XCTAssertTrue(result.lines.contains { $0.hasPrefix("orphaned reference: Task ") && $0.hasSuffix(" refers to Project 999, which does not exist (project)") },
                      result.stdout)
        XCTAssertTrue(result.lines.contains("schema: the table Scratch is not in the recorded model"), result.stdout)
        XCTAssertEqual(storeBytes(url), before)

        try ToolStores.runRawSQL("DROP TABLE \"Scratch\"", on: url)
        let values = try ToolRunner.run(["check", url.path])
        XCTAssertTrue(values.lines.contains { $0.hasPrefix("value: Task.priority holds 1 value that integer cannot read (the first in Task ") },
                      values.stdout)
    }

    func testAMissingColumnAndIndexAreSchemaProblems() throws {
        let directory = TemporaryDirectory()
        let url = try store(directory)
        try ToolStores.runRawSQL("DROP INDEX \"_persistkit_unique_Tag_0\"; ALTER TABLE \"Task\" DROP COLUMN \"remindAt\"", on: url)
        let result = try ToolRunner.run(["check", url.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.lines.sorted(), ["schema: the table Task has no column remindAt",
                                               "schema: the unique index _persistkit_unique_Tag_0 on Tag(name) is missing"])
    }

    func testAMissingTableIsASchemaProblemNotAFailure() throws {
        let directory = TemporaryDirectory()
        let url = try store(directory)
        try ToolStores.runRawSQL("DROP TABLE \"ReminderNotice\"", on: url)
        let result = try ToolRunner.run(["check", url.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.lines, ["schema: the table ReminderNotice of entity ReminderNotice is missing",
                                     "schema: the unique index _persistkit_unique_ReminderNotice_0 on ReminderNotice(taskReference, remindAt) is missing"])
    }

    /// On a terminal the check draws a progress bar on standard error; piped (every other
    /// test), it draws nothing.
    func testProgressIsShownOnATerminalOnly() throws {
        let directory = TemporaryDirectory()
        let url = try store(directory)
        let (status, text) = try runOnTerminal(try XCTUnwrap(ToolRunner.url), ["check", url.path])
        XCTAssertEqual(status, 0, text)
        XCTAssertTrue(text.contains("\r\u{1B}[K[") && text.contains("% checking integrity of "), text.debugDescription)
        XCTAssertTrue(text.contains("no problems"), text)
    }

    /// Damage inside a table's pages: SQLite's integrity check reports it (or the store cannot be read at all).
    func testDamagedPagesAreFound() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("big.sqlite")
        try ToolStores.writeVersion1Store(at: url, count: 3_000)
        var bytes = try Data(contentsOf: url)
        let pageSize = 4096
        XCTAssertGreaterThan(bytes.count, pageSize * 20)
        // Scribble over the middle of a data page, past the header pages.
        let start = pageSize * 10 + 100
        bytes.replaceSubrange(start..<(start + 600), with: Data(repeating: 0xA5, count: 600))
        try bytes.write(to: url)
        let result = try ToolRunner.run(["check", url.path])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("damaged: ") || result.stderr.contains("damaged") || result.stderr.contains("not a database"),
                      result.stdout + result.stderr)
        XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, result.stderr)
    }
}
