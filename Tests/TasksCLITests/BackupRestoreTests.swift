import Foundation
import XCTest

/// Issue 25's items about exports: a restored backup is exact (item 4), and every import error
/// names the file the same way (item 10).
final class BackupRestoreTests: XCTestCase {
    /// Importing an export into a new store gives back exactly the exported tasks: the store
    /// `import` creates gets no example tasks, neither then nor when it is opened later.
    func testABackupRestoredIntoANewStoreIsExactlyTheBackup() throws {
        let source = try CLIFixture()
        try source.ok("list")
        try source.add("Pay rent", "--due", "2030-01-01", "--project", "Home", "--tag", "bills")
        let backup = source.directory.appendingPathComponent("backup.json").path
        try source.ok("export", backup)
        let exported = try source.list().allTasks
        XCTAssertEqual(exported.count, 5, "four examples and one task")

        let restored = source.directory.appendingPathComponent("restored/tasks.sqlite").path
        XCTAssertEqual(try source.ok("import", backup, "--store", restored).stdout, "Imported 5 tasks\n")
        let identity = { (rows: [ListOutput.Row]) in
            rows.map { [$0.name, $0.createdAt, $0.completedAt ?? "-", $0.due ?? "-", $0.project ?? "-", $0.tags.joined(separator: ",")] }
        }
        for _ in 0..<2 {
            let listed = try source.run(["list", "--json", "--store", restored])
            XCTAssertEqual(listed.status, 0, listed.stderr)
            let rows = try JSONDecoder().decode(ListOutput.self, from: Data(listed.stdout.utf8)).allTasks
            XCTAssertEqual(identity(rows), identity(exported), "exactly the exported tasks, no examples added")
        }
    }

    /// A bad name in a file is refused like any other bad content, before a store is made:
    /// `FILE is not a valid task export (task 2: ...)`.
    func testEveryImportErrorNamesTheFile() throws {
        let fixture = try CLIFixture()
        let head = #"{"format": "tasks", "version": 2, "exportedAt": "2026-11-01T08:00:00Z", "#
        let good = #"{"name": "ok", "createdAt": "2026-11-01T08:00:00Z"}"#
        let cases: [(String, String)] = [
            (#""tasks": [GOOD, {"name": " ", "createdAt": "2026-11-01T08:00:00Z"}]}"#, "task 2: a task's name cannot be empty"),
            (#""tasks": [GOOD, {"name": "x", "createdAt": "2026-11-01T08:00:00Z", "tags": ["two words"]}]}"#,
             "task 2: a tag's name cannot contain spaces"),
            (#""tasks": [GOOD], "projects": ["Home", " "]}"#, "project 2: a project's name cannot be empty"),
            (#""tasks": [{"name": "x"}]}"#, "createdAt of task 1 is missing"),
        ]
        for (index, (tail, problem)) in cases.enumerated() {
            let file = fixture.directory.appendingPathComponent("bad-\(index).json")
            try Data((head + tail.replacingOccurrences(of: "GOOD", with: good)).utf8).write(to: file)
            try fixture.fails(["import", file.lastPathComponent], status: 1,
                              message: "\(file.lastPathComponent) is not a valid task export (\(problem))")
            XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.storeURL.path), "a bad file makes no store")
        }
    }
}
