import Foundation
import PersistKit
import PersistKitTestSupport
import TaskModel
import XCTest

/// `persistkit fetch`: the library's own fetch on the model the store records, as a table or
/// JSON, relationships as references, without the application's classes.
final class FetchCommandTests: XCTestCase {
    func testFetchPrintsATableWithReferences() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("tasks.sqlite")
        try ToolStores.writeTaskStore(at: url)
        let before = storeBytes(url)
        let lines = try ToolRunner.ok("fetch", url.path, "Task", "--sort", "name").lines
        XCTAssertEqual(lines.count, 5, "\(lines)")
        XCTAssertTrue(lines[0].hasPrefix("#   name"), lines[0])
        XCTAssertTrue(lines[0].contains("  project  ") && lines[0].contains("  tags"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("#1  Buy milk") && lines[1].contains("  Project #1  Tag #1"), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("#2  Call mom") && !lines[2].contains("Project #"), lines[2])
        XCTAssertEqual(lines[4], "(3 objects)")
        XCTAssertEqual(storeBytes(url), before)
    }

    func testWhereSortAndLimitGoThroughTheLibrarysFetch() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("old.sqlite")
        try ToolStores.writeVersion1Store(at: url, count: 40)
        let format = "isComplete == NO AND name CONTAINS[c] 'TASK 1'"
        let output = try ToolRunner.ok("fetch", url.path, "Task", "--where", format, "--sort", "-createdAt,name", "--limit", "4", "--json")
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        // The same request in process, through the application's classes.
        let container = try PersistentContainer(model: TaskModelV1.makeModel(), store: .sqlite(url, readOnly: true))
        var request = FetchRequest<TaskModelV1.TaskItem>(predicate: try FetchPredicate(format: format),
                                                          sortBy: [FetchSortDescriptor<TaskModelV1.TaskItem>(key: "createdAt", order: .reverse),
                                                                   FetchSortDescriptor<TaskModelV1.TaskItem>(key: "name")])
        request.fetchLimit = 4
        let expected = try container.newContext().fetch(request)
        XCTAssertEqual(rows.map { ($0["#"] as? NSNumber)?.int64Value }, expected.map { $0.objectID.primaryKey })
        XCTAssertEqual(rows.map { $0["name"] as? String }, expected.map { $0.name })
        XCTAssertEqual(rows.count, 4)
        XCTAssertEqual(rows.first?["isComplete"] as? Bool, false)
        XCTAssertEqual(rows.first?["createdAt"] as? String, "2023-11-14T22:13:39Z")
    }

    func testJSONHasReferencesAndExactText() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("tasks.sqlite")
        try ToolStores.writeTaskStore(at: url)
        let output = try ToolRunner.ok("fetch", url.path, "Task", "--where", "project.name == 'Home'", "--json").stdout
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows[0]["notes"] as? String, "oat")
        let project = try XCTUnwrap(rows[0]["project"] as? [String: Any])
        XCTAssertEqual(project["entity"] as? String, "Project")
        XCTAssertEqual((project["key"] as? NSNumber)?.intValue, 1)
        let tags = try XCTUnwrap(rows[0]["tags"] as? [[String: Any]])
        XCTAssertEqual(tags.map { $0["entity"] as? String }, ["Tag"])
        let projects = try ToolRunner.ok("fetch", url.path, "Project", "--where", "tasks.@count > 0").lines
        XCTAssertEqual(projects.count, 3, "\(projects)")
        XCTAssertTrue(projects[1].hasPrefix("#1  Home  ") && projects[1].contains("Task #1"), "\(projects)")
    }

    func testBadEntitiesPredicatesAndKeysAreUsageErrors() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("tasks.sqlite")
        try ToolStores.writeTaskStore(at: url)
        let entity = try ToolRunner.fails("fetch", url.path, "Nope", status: 64)
        let names = try TaskStore.makeModel().entities.map(\.name).joined(separator: ", ")
        XCTAssertEqual(entity.stderr, "persistkit: \(url.path) has no entity Nope (its entities: \(names))\n")
        let syntax = try ToolRunner.fails("fetch", url.path, "Task", "--where", "name ==", status: 64)
        XCTAssertTrue(syntax.stderr.contains("syntax error in predicate format"), syntax.stderr)
        let key = try ToolRunner.fails("fetch", url.path, "Task", "--where", "colour == 'red'", status: 64)
        XCTAssertTrue(key.stderr.contains("colour"), key.stderr)
        try ToolRunner.fails("fetch", url.path, "Task", "--sort", "bogus", status: 64)
        try ToolRunner.fails("fetch", url.path, "Task", "--limit", "0", status: 64)
    }

    /// A value's control characters cannot reach the terminal through the table.
    func testControlCharactersAreVisibleInTheTable() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("tasks.sqlite")
        let store = try TaskStore(container: PersistentContainer(model: TaskStore.makeModel(), store: .sqlite(url)), stagesSampleData: false)
        _ = try store.add(name: "bell\u{7}and\u{1B}[31mred", TaskChanges())
        let table = try ToolRunner.ok("fetch", url.path, "Task").stdout
        XCTAssertTrue(table.contains("bell\\u{7}and\\u{1B}[31mred"), table)
        XCTAssertFalse(table.contains("\u{1B}"))
    }

    /// PERSISTKIT_SQL_DEBUG prints the statements and the fetch to standard error, without a logging backend.
    func testSQLDebugPrintsStatementsToStandardError() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("tasks.sqlite")
        try ToolStores.writeTaskStore(at: url)
        let one = try ToolRunner.ok("fetch", url.path, "Task", "--where", "name == 'Call mom'", environment: ["PERSISTKIT_SQL_DEBUG": "1"])
        let lines = one.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("persistkit trace: ") && $0.contains(" ms, 1 bound: SELECT") && $0.contains("FROM \"Task\" WHERE") },
                      one.stderr)
        XCTAssertFalse(one.stderr.contains("Call mom"), "values only at 3")
        XCTAssertFalse(one.stderr.contains("query plan"), "plans only from 2")
        XCTAssertEqual(one.lines.last, "(1 object)", "standard output is the same")
        let two = try ToolRunner.ok("fetch", url.path, "Task", "--where", "name == 'Call mom'", environment: ["PERSISTKIT_SQL_DEBUG": "2"])
        XCTAssertTrue(two.stderr.contains("persistkit trace: query plan of SELECT"), two.stderr)
        let three = try ToolRunner.ok("fetch", url.path, "Task", "--where", "name == 'Call mom'", environment: ["PERSISTKIT_SQL_DEBUG": "3"])
        XCTAssertTrue(three.stderr.contains("WHERE (\"name\" = 'Call mom')"), three.stderr)
        let none = try ToolRunner.ok("fetch", url.path, "Task", environment: ["PERSISTKIT_SQL_DEBUG": "0"])
        XCTAssertEqual(none.stderr, "")
    }
}
