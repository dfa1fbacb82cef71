import Foundation
import PersistKit
import TaskModel
import XCTest

/// Task sections are keyed by completion, a `Bool`, not by the text of a results section's name.
final class TaskSectionTests: XCTestCase {
    func testSectionsAreKeyedByCompletion() {
        XCTAssertEqual(TaskSection(rawValue: false), .incomplete)
        XCTAssertEqual(TaskSection(rawValue: true), .complete)
        XCTAssertEqual(TaskSection.allCases.map(\.rawValue), [false, true])
        XCTAssertEqual(TaskSection.allCases.map(\.isComplete), [false, true])
        XCTAssertEqual(TaskSection(isComplete: true), .complete)
        XCTAssertEqual(TaskSection.allCases.map(\.title), ["Incomplete", "Complete"])
        let key: Bool = TaskSection.complete.rawValue
        XCTAssertTrue(key)
    }

    func testGroupingTasksBySection() throws {
        let fixture = try TaskStoreFixture()
        let done = try fixture.store.add(name: "Done")
        try fixture.store.add(name: "Open")
        try fixture.store.setIsComplete(done, true)
        let grouped = Dictionary(grouping: try fixture.store.tasks()) { TaskSection(isComplete: $0.isComplete) }
        XCTAssertEqual(grouped[.incomplete]?.names, ["Open"])
        XCTAssertEqual(grouped[.complete]?.names, ["Done"])
    }

    func testResultsSectionsAreReadFromTheirTasks() throws {
        let fixture = try TaskStoreFixture()
        let done = try fixture.store.add(name: "Done")
        try fixture.store.add(name: "Open")
        try fixture.store.setIsComplete(done, true)
        let results = fixture.store.resultsController(filter: .all)
        try results.performFetch()
        XCTAssertEqual(results.sections.compactMap(TaskSection.init), [.incomplete, .complete])
        for section in results.sections {
            let key = try XCTUnwrap(TaskSection(section)).rawValue
            XCTAssertTrue(section.objects.allSatisfy { $0.isComplete == key }, section.name)
        }

        // A task completed moves its section: the controller's sections follow, and so do theirs.
        let open = try XCTUnwrap(results.sections.first?.objects.first)
        try fixture.store.setIsComplete(open, true)
        XCTAssertEqual(results.sections.compactMap(TaskSection.init), [.complete])
    }
}
