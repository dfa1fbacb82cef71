import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A fetch through relationships sees the context's unsaved changes to related objects, not
/// only to the fetched ones: a task whose project was renamed is judged by the new name, and
/// every answer equals the answer once the changes are saved.
final class RelationshipPredicatePendingChangesTests: XCTestCase {
    /// Fetches each predicate now (pending) and again after saving (a fresh context): both equal `expected`.
    private func assertPendingAndSaved(_ fixture: PredicateGraphFixture, _ cases: [(String, [Any], [String])],
                                       file: StaticString = #filePath, line: UInt = #line) throws {
        var predicates: [FetchPredicate<RPTask>] = []
        for (format, arguments, expected) in cases {
            let predicate = try FetchPredicate<RPTask>(format: format, argumentArray: arguments)
            predicates.append(predicate)
            XCTAssertEqual(try fixture.contextTitles(predicate), expected.sorted(), "pending: \(format)", file: file, line: line)
            XCTAssertEqual(try fixture.context.count(for: FetchRequest(predicate: predicate)), expected.count, "pending count: \(format)",
                           file: file, line: line)
        }
        try fixture.context.save()
        for (index, (format, _, expected)) in cases.enumerated() {
            XCTAssertEqual(try fixture.sqlTitles(predicates[index]), expected.sorted(), "saved: \(format)", file: file, line: line)
        }
    }

    func testARenamedProjectJudgesItsTasksByTheNewName() throws {
        let fixture = try PredicateGraphFixture()
        fixture.projects["Home"]?.name = "Away"
        try assertPendingAndSaved(fixture, [
            ("project.name == 'Home'", [], []),
            ("project.name == 'Away'", [], RelationshipPredicateTests.home),
            ("project.name BEGINSWITH[c] 'a'", [], RelationshipPredicateTests.home),
            ("project.name != 'Away'", [], RelationshipPredicateTests.work + ["Weed beds", "Loose end"]),
            ("ANY project.tasks.project.name == 'Away'", [], RelationshipPredicateTests.home),
        ])
    }

    func testARenamedOwnerTwoHopsAway() throws {
        let fixture = try PredicateGraphFixture()
        fixture.owners["Bob"]?.name = "Ann"
        try assertPendingAndSaved(fixture, [
            ("project.owner.name == 'Ann'", [], RelationshipPredicateTests.home + RelationshipPredicateTests.work),
            ("project.owner.name == 'Bob'", [], []),
        ])
    }

    func testRelinksNilProjectsAndUnsavedProjects() throws {
        let fixture = try PredicateGraphFixture()
        let home = try XCTUnwrap(fixture.projects["Home"])
        fixture.tasks["Plan trip"]?.project = home
        fixture.tasks["Buy milk"]?.project = nil
        let cabin = RPProject(context: fixture.context)
        cabin.name = "Home"
        cabin.rank = 9
        fixture.tasks["Loose end"]?.project = cabin
        let fresh = RPTask(context: fixture.context)
        fresh.title = "Sweep"
        fresh.project = home
        try assertPendingAndSaved(fixture, [
            ("project.name == 'Home'", [], ["Call mom", "Fix roof", "Plan trip", "Loose end", "Sweep"]),
            ("project == nil", [], ["Buy milk"]),
            ("project.rank > 5", [], ["Loose end"]),
            ("project.tasks.@count == 4", [], ["Call mom", "Fix roof", "Plan trip", "Sweep"]),
            ("ANY project.tasks.title == 'Sweep'", [], ["Call mom", "Fix roof", "Plan trip", "Sweep"]),
            ("project == %@", [home], ["Call mom", "Fix roof", "Plan trip", "Sweep"]),
        ])
    }

    func testDeletedRelatedObjectsAreGone() throws {
        let fixture = try PredicateGraphFixture()
        fixture.context.delete(try XCTUnwrap(fixture.tags["urgent"]))
        fixture.context.delete(try XCTUnwrap(fixture.projects["Work"]))
        fixture.context.delete(try XCTUnwrap(fixture.tasks["Buy milk"]))
        try assertPendingAndSaved(fixture, [
            ("ANY tags.name == 'urgent'", [], []),
            ("tags.@count == 0", [], ["Fix roof", "Loose end"]),
            ("project == nil", [], ["Write report", "Plan trip", "Loose end"]),
            ("project.name == nil", [], ["Write report", "Plan trip", "Weed beds", "Loose end"]),
            ("blocker != nil", [], ["Loose end"]),
            ("project.tasks.@count == 2", [], ["Call mom", "Fix roof"]),
        ])
    }

    func testChangedTagsAndLinks() throws {
        let fixture = try PredicateGraphFixture()
        fixture.tags["later"]?.weight = 10
        fixture.tags["xray"]?.name = "lamp"
        if let later = fixture.tags["later"] { fixture.tasks["Fix roof"]?.tags.insert(later) }
        let extra = RPTag(context: fixture.context)
        extra.name = "new"
        extra.weight = 4
        fixture.tasks["Loose end"]?.tags = [extra]
        try assertPendingAndSaved(fixture, [
            ("tags.@sum.weight > 5", [], ["Call mom", "Fix roof", "Plan trip"]),
            ("SUBQUERY(tags, $t, $t.name BEGINSWITH 'l').@count > 0", [], ["Call mom", "Fix roof", "Plan trip", "Write report", "Weed beds"]),
            ("ANY tags.weight == 4", [], ["Loose end"]),
            ("tags.@count == 0", [], []),
        ])
    }

    /// The derived side of a many-to-many (a tag's tasks) follows changes made on the owning side.
    func testTheOtherSideOfAManyToMany() throws {
        let fixture = try PredicateGraphFixture()
        if let later = fixture.tags["later"] { fixture.tasks["Buy milk"]?.tags.insert(later) }
        fixture.tasks["Write report"]?.tags = []
        fixture.tasks["Plan trip"]?.title = "Plan holiday"
        let tags = { (format: String) in
            try fixture.context.fetch(FetchRequest<RPTag>(predicate: try FetchPredicate(format: format), sortBy: [FetchSortDescriptor(\.name)]))
                .map(\.name)
        }
        XCTAssertEqual(try tags("ANY tasks.title == 'Buy milk'"), ["later", "urgent"])
        XCTAssertEqual(try tags("tasks.@count == 1"), ["xray"])
        XCTAssertEqual(try tags("ANY tasks.title BEGINSWITH 'Plan'"), ["later"])
        XCTAssertEqual(try tags("ANY tasks.title == 'Plan trip'"), [])
        try fixture.context.save()
        let saved = { (format: String) in
            try fixture.container.newContext().fetch(FetchRequest<RPTag>(predicate: try FetchPredicate(format: format),
                                                                         sortBy: [FetchSortDescriptor(\.name)])).map(\.name)
        }
        XCTAssertEqual(try saved("ANY tasks.title == 'Buy milk'"), ["later", "urgent"])
        XCTAssertEqual(try saved("tasks.@count == 1"), ["xray"])
    }

    func testWithoutPendingChangesTheStoreAnswers() throws {
        let fixture = try PredicateGraphFixture()
        fixture.projects["Home"]?.name = "Away"
        var request = FetchRequest<RPTask>(predicate: try FetchPredicate(format: "project.name == 'Home'"),
                                           sortBy: [FetchSortDescriptor(\.title)])
        request.includesPendingChanges = false
        XCTAssertEqual(try fixture.context.fetch(request).map(\.title), RelationshipPredicateTests.home.sorted())
    }
}
