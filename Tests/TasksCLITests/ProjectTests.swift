import Foundation
import XCTest

/// Projects: `--project` / `--no-project` on add and edit, `list --project`, `tasks projects`,
/// `tasks project rename`, `tasks project rm [--with-tasks | --keep-tasks]`.
final class ProjectTests: XCTestCase {
    func testTasksAreFiledInProjectsMadeOnFirstUse() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        XCTAssertEqual(try fixture.ok("projects").stdout, "No projects. File a task in one with: tasks add \"Fix the gate\" --project Home\n")
        let gate = try fixture.add("Fix the gate", "--project", "Home")
        let milk = try fixture.add("Buy milk", "--project", "home")
        let report = try fixture.add("Write the report", "--project", "Work")
        try fixture.ok("done", String(milk))
        try fixture.add("Unfiled")

        XCTAssertEqual(try fixture.list().task(gate)?.project, "Home")
        XCTAssertEqual(try fixture.list().task(milk)?.project, "Home", "names are matched without regard to case")
        XCTAssertEqual(try fixture.ok("projects").lines, ["+Home  1 open  1 done", "+Work  1 open  0 done"])
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try fixture.ok("projects", "--json").stdout.utf8)) as? [String: Any])
        let projects = try XCTUnwrap(json["projects"] as? [[String: Any]])
        XCTAssertEqual(projects.map { $0["name"] as? String }, ["Home", "Work"])
        XCTAssertEqual(projects.map { $0["open"] as? Int }, [1, 1])
        XCTAssertEqual(projects.map { $0["done"] as? Int }, [1, 0])

        XCTAssertEqual(try fixture.list("--project", "HOME").allTasks.map(\.ref), [gate, milk])
        XCTAssertEqual(try fixture.list("--project", "Work", "--incomplete").allTasks.map(\.ref), [report])
        let lines = try fixture.ok("list", "--project", "Home").lines
        XCTAssertTrue(lines[1].contains("Fix the gate") && lines[1].hasSuffix("+Home"), lines[1])
        try fixture.fails(["list", "--project", "Garden"], status: 1, message: "no project named \"Garden\"")
    }

    func testEditMovesAndUnfiles() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let task = try fixture.add("Call the bank", "--project", "Home")
        try fixture.ok("edit", String(task), "--project", "Work")
        XCTAssertEqual(try fixture.list().task(task)?.project, "Work")
        XCTAssertEqual(try fixture.ok("projects").lines, ["+Home  0 open  0 done", "+Work  1 open  0 done"])
        try fixture.ok("edit", String(task), "--no-project")
        XCTAssertNil(try fixture.list().task(task)?.project)
        try fixture.fails(["edit", String(task), "--project", "Home", "--no-project"], status: 64,
                          message: "--project and --no-project cannot be used together")
        try fixture.fails(["add", "x", "--project", " "], status: 64, message: "a project's name cannot be empty")
        try fixture.fails(["add", "x", "--project", String(repeating: "p", count: 101)], status: 64,
                          message: "a project's name can be at most 100 characters (this one has 101)")
    }

    func testRename() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let task = try fixture.add("Fix the gate", "--project", "Home")
        try fixture.add("Write", "--project", "Work")
        XCTAssertEqual(try fixture.ok("project", "rename", "home", "House").stdout, "Renamed project \"Home\" to \"House\"\n")
        XCTAssertEqual(try fixture.list().task(task)?.project, "House")
        XCTAssertEqual(try fixture.ok("project", "rename", "house", "HOUSE").stdout, "Renamed project \"House\" to \"HOUSE\"\n")
        try fixture.fails(["project", "rename", "HOUSE", "work"], status: 1, message: "a project named \"Work\" already exists")
        try fixture.fails(["project", "rename", "Garden", "Yard"], status: 1, message: "no project named \"Garden\"")
        try fixture.fails(["project", "rename", "HOUSE", ""], status: 64, message: "a project's name cannot be empty")
    }

    func testRemoveIsRefusedWhileTheProjectHasTasksUnlessToldWhatToDo() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let kept = try fixture.add("Fix the gate", "--project", "Home")
        try fixture.add("Paint", "--project", "Home")
        let gone = try fixture.add("Write", "--project", "Work")
        try fixture.fails(["project", "rm", "home"], status: 1, message: "project \"Home\" has 2 tasks: give --with-tasks to "
                          + "remove them too, or --keep-tasks to keep them without a project")
        try fixture.fails(["project", "rm", "Home", "--with-tasks", "--keep-tasks"], status: 64,
                          message: "--with-tasks and --keep-tasks cannot be used together")
        try fixture.fails(["project", "rm", "Garden"], status: 1, message: "no project named \"Garden\"")

        XCTAssertEqual(try fixture.ok("project", "rm", "Home", "--keep-tasks").stdout,
                       "Removed project \"Home\"; its 2 tasks kept without a project\n")
        XCTAssertNil(try fixture.list().task(kept)?.project)
        XCTAssertEqual(try fixture.ok("project", "rm", "Work", "--with-tasks").stdout, "Removed project \"Work\" and its 1 task\n")
        XCTAssertNil(try fixture.list().task(gone))
        XCTAssertEqual(try fixture.list().allTasks.count, 2)
        try fixture.add("x", "--project", "Empty")
        try fixture.ok("edit", String(try XCTUnwrap(try fixture.list().allTasks.last?.ref)), "--no-project")
        XCTAssertEqual(try fixture.ok("project", "rm", "Empty").stdout, "Removed project \"Empty\"\n")
        XCTAssertEqual(try fixture.ok("projects").stdout, "No projects. File a task in one with: tasks add \"Fix the gate\" --project Home\n")
    }

    func testProjectNamesAreShownEscaped() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        try fixture.add("x", "--project", "Evil\u{1B}[2J")
        XCTAssertEqual(try fixture.ok("projects").lines, ["+Evil\\u{1B}[2J  1 open  0 done"])
        XCTAssertFalse(try fixture.ok("list").stdout.contains("\u{1B}"))
        XCTAssertEqual(try fixture.list().allTasks.first?.project, "Evil\u{1B}[2J", "JSON keeps the exact text")
    }
}
