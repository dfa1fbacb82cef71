import Foundation
import PersistKit
import PersistKitTestSupport
import XCTest

/// What TaskModel's own rules ask of a merge: tags and projects are one per name without
/// regard to case, a day has one record, the store one set of limits.
final class TasksSyncMergeTests: SyncTestCase {
    func testTagsOfOneNameInAnyCaseTheSameDayAndTheLimitsConvergeToOne() throws {
        let cli = TasksCLI(directory: directory, serverURL: try serverURL())
        // Stores whose first command is a sync: no examples.
        for store in ["a", "b"] { XCTAssertEqual(try cli.run(store, ["sync", "--space", "home"]).status, 0) }
        try cli.run("a", ["add", "Task A", "--tag", "Urgent", "--project", "Home", "--priority", "high"])
        try cli.run("a", ["plan", "1", "--day", "2030-01-07"])
        try cli.run("a", ["limits", "--high", "2"])
        try cli.run("b", ["add", "Task B", "--tag", "urgent", "--project", "HOME", "--priority", "high"])
        try cli.run("b", ["plan", "1", "--day", "2030-01-07"])
        for store in ["a", "b", "a"] {
            let round = try cli.run(store, ["sync", "--space", "home"])
            XCTAssertEqual(round.status, 0, round.err)
        }
        for store in ["a", "b"] {
            let tags = try cli.run(store, ["tags", "--json"]).out
            XCTAssertEqual(try cli.json(tags)["tags"]?.count, 1, "one tag on \(store): \(tags)")
            XCTAssertTrue(tags.contains("\"open\":2") || tags.contains("\"open\" : 2"), "the tag holds both tasks on \(store): \(tags)")
            let projects = try cli.run(store, ["projects", "--json"]).out
            XCTAssertEqual(try cli.json(projects)["projects"]?.count, 1, "one project on \(store): \(projects)")
            let day = try cli.run(store, ["today", "--day", "2030-01-07", "--json"]).out
            XCTAssertTrue(day.contains("Task A") && day.contains("Task B"), "the day's plan holds both on \(store): \(day)")
            let limits = try cli.run(store, ["limits", "--json"]).out
            XCTAssertTrue(limits.replacingOccurrences(of: " ", with: "").contains("\"high\":2"),
                          "the limits set on A, not B's defaults, on \(store): \(limits)")
        }
        XCTAssertEqual(try cli.listWithoutNumbers("a"), try cli.listWithoutNumbers("b"))
        let days = try cli.storeCount("a", "SELECT count(*) FROM Day"), daysB = try cli.storeCount("b", "SELECT count(*) FROM Day")
        XCTAssertEqual([days, daysB], [1, 1], "one Day for the calendar day on each store")
        XCTAssertEqual(try cli.storeCount("b", "SELECT count(*) FROM StoreInfo"), 1, "one store record")
    }
}
