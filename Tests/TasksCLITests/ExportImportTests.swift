import Foundation
import XCTest

/// `tasks export [FILE]` and `tasks import FILE`.
final class ExportImportTests: XCTestCase {
    func testRoundTripThroughAFile() throws {
        let source = try CLIFixture()
        try source.makeEmptyStore()
        try source.add("Call mom", "--notes", "About «the trip»\nline two", "--due", "2030-01-02")
        let done = try source.add("Water plants")
        try source.ok("done", String(done))
        try source.add("Read")
        let file = source.directory.appendingPathComponent("backup.json").path
        XCTAssertEqual(try source.ok("export", file).stdout, "Exported 3 tasks to \(file)\n")

        let target = try CLIFixture()
        try target.makeEmptyStore()
        XCTAssertEqual(try target.ok("import", file).stdout, "Imported 3 tasks\n")
        let strip = { (rows: [ListOutput.Row]) in rows.map { [$0.name, $0.notes ?? "-", $0.due ?? "-", "\($0.isComplete)", $0.createdAt] } }
        XCTAssertEqual(strip(try target.list().allTasks), strip(try source.list().allTasks))

        XCTAssertEqual(try target.ok("import", file).stdout, "Imported 0 tasks (skipped 3 already in the store)\n")
        XCTAssertEqual(try target.ok("import", file, "--keep-duplicates").stdout, "Imported 3 tasks\n")
        XCTAssertEqual(try target.list().allTasks.count, 6)
    }

    func testExportToStandardOutputAndImportFromStandardInput() throws {
        let source = try CLIFixture()
        let exported = try source.ok("export").stdout
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [String: Any])
        XCTAssertEqual(document["format"] as? String, "tasks")
        XCTAssertEqual(document["version"] as? Int, 3)
        let count = try XCTUnwrap(document["tasks"] as? [Any]).count
        XCTAssertEqual(count, try source.list().allTasks.count)

        let target = try CLIFixture()
        try target.makeEmptyStore()
        XCTAssertEqual(try target.ok("import", "-", input: Data(exported.utf8)).stdout, "Imported \(count) tasks\n")
    }

    func testBadImportFilesChangeNothing() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        let notJSON = fixture.directory.appendingPathComponent("notes.txt")
        try Data("shopping list\n".utf8).write(to: notJSON)
        try fixture.fails(["import", "notes.txt"], status: 1, message: "notes.txt is not a task export (not a JSON object)")
        try fixture.fails(["import", "missing.json"], status: 1, message: "cannot read missing.json: no such file")
        let badTask = fixture.directory.appendingPathComponent("bad.json")
        try Data(#"{"format": "tasks", "version": 1, "exportedAt": "2026-11-01T08:00:00Z", "tasks": [{"name": "x"}]}"#.utf8).write(to: badTask)
        try fixture.fails(["import", "bad.json"], status: 1,
                          message: "bad.json is not a valid task export (createdAt of task 1 is missing)")
        let emptyName = fixture.directory.appendingPathComponent("empty-name.json")
        try Data(#"{"format": "tasks", "version": 1, "exportedAt": "2026-11-01T08:00:00Z", "tasks": [{"name": "ok", "createdAt": "2026-11-01T08:00:00Z"}, {"name": " ", "createdAt": "2026-11-01T08:00:00Z"}]}"#.utf8)
            .write(to: emptyName)
        try fixture.fails(["import", "empty-name.json"], status: 1,
                          message: "empty-name.json is not a valid task export (task 2: a task's name cannot be empty)")
    }

    /// People count from 1: the second task of a file is "task 2" in every import error.
    func testImportErrorsCountTasksFromOne() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        let file = fixture.directory.appendingPathComponent("second-bad.json")
        try Data(#"{"format": "tasks", "version": 1, "exportedAt": "2026-11-01T08:00:00Z", "tasks": [{"name": "ok", "createdAt": "2026-11-01T08:00:00Z"}, {"name": 3, "createdAt": "2026-11-01T08:00:00Z"}]}"#.utf8)
            .write(to: file)
        try fixture.fails(["import", "second-bad.json"], status: 1,
                          message: "second-bad.json is not a valid task export (name of task 2 should be a string)")
    }

    /// Version 2 carries projects (those without tasks too), tags, priorities, completion and
    /// reminder times, due days and due instants.
    func testVersion2RoundTripCarriesTheNewValues() throws {
        let source = try CLIFixture()
        try source.makeEmptyStore()
        try source.add("Buy milk", "--due", "2030-01-02", "--project", "Home", "--tag", "errands", "--tag", "shop",
                       "--priority", "high", "--remind", "2030-01-02T08:00:00Z")
        try source.add("Dentist", "--due", "2030-01-03 14:30", "--priority", "low")
        try source.ok("done", String(try source.add("Water plants", "--project", "Garden")))
        try source.add("Temp", "--project", "Empty", "--tag", "lonely")
        try source.ok("rm", String(try XCTUnwrap(try source.list().allTasks.first { $0.name == "Temp" }?.ref)))
        let exported = try source.ok("export").stdout
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [String: Any])
        XCTAssertEqual(document["projects"] as? [String], ["Empty", "Garden", "Home"])
        XCTAssertEqual(document["tags"] as? [String], ["errands", "lonely", "shop"])

        let target = try CLIFixture()
        try target.makeEmptyStore()
        XCTAssertEqual(try target.ok("import", "-", input: Data(exported.utf8)).stdout, "Imported 3 tasks\n")
        let strip = { (rows: [ListOutput.Row]) in
            rows.map { [$0.name, $0.due ?? "-", $0.dueAt ?? "-", $0.priority, $0.project ?? "-", $0.tags.joined(separator: ","),
                        $0.remindAt ?? "-", $0.completedAt ?? "-", $0.createdAt] }
        }
        XCTAssertEqual(strip(try target.list().allTasks), strip(try source.list().allTasks))
        XCTAssertEqual(try target.ok("projects").lines, try source.ok("projects").lines)
        XCTAssertEqual(try target.ok("tags").lines, try source.ok("tags").lines)
    }

    /// A version 1 export (from tasks 0.1) still imports; its hashtags become tags.
    func testVersion1ExportsStillImport() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let file = fixture.directory.appendingPathComponent("old.json")
        try Data(##"{"format": "tasks", "version": 1, "exportedAt": "2026-11-01T08:00:00Z", "tasks": [{"name": "Buy milk #errands", "notes": null, "due": "2026-11-24T23:00:00.000Z", "isComplete": false, "createdAt": "2026-11-01T08:00:00Z"}]}"##.utf8)
            .write(to: file)
        XCTAssertEqual(try fixture.ok("import", "old.json").stdout, "Imported 1 task\n")
        let task = try XCTUnwrap(try fixture.list().allTasks.first)
        XCTAssertEqual(task.dueAt, "2026-11-24T23:00:00.000Z", "a version 1 due keeps its instant")
        XCTAssertEqual(task.tags, ["errands"])
        XCTAssertEqual(task.priority, "normal")
    }
}
