import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Sorting by an attribute of a to-one (`project.name`): the same order from SQL and in
/// memory, nil placed as asked, ties by primary key; pending renames move objects.
final class RelationshipSortTests: XCTestCase {
    /// The titles in the fixture's order, from SQL (saved, fresh context) and from memory (the
    /// same graph unsaved), both checked against `expected`.
    private func assertOrder(_ sorts: [FetchSortDescriptor<RPTask>], _ expected: [String],
                             file: StaticString = #filePath, line: UInt = #line) throws {
        let saved = try PredicateGraphFixture()
        let unsaved = try PredicateGraphFixture(save: false)
        let request = FetchRequest<RPTask>(sortBy: sorts)
        XCTAssertEqual(try saved.container.newContext().fetch(request).map(\.title), expected, "SQL", file: file, line: line)
        XCTAssertEqual(try unsaved.context.fetch(request).map(\.title), expected, "memory", file: file, line: line)
        var window = request
        window.fetchLimit = 3
        window.fetchOffset = 2
        XCTAssertEqual(try saved.container.newContext().fetch(window).map(\.title), Array(expected.dropFirst(2).prefix(3)), "window",
                       file: file, line: line)
    }

    func testSortByAToOnesAttribute() throws {
        try assertOrder([FetchSortDescriptor(key: "project.name", nils: .last), FetchSortDescriptor(\.title)],
                        ["Buy milk", "Call mom", "Fix roof", "Plan trip", "Write report", "Loose end", "Weed beds"])
        try assertOrder([FetchSortDescriptor(key: "project.name", order: .reverse, nils: .first), FetchSortDescriptor(\.title)],
                        ["Loose end", "Weed beds", "Plan trip", "Write report", "Buy milk", "Call mom", "Fix roof"])
    }

    func testTiesAreBrokenByPrimaryKey() throws {
        // Insertion order: Buy milk, Call mom, Fix roof, Write report, Plan trip, Weed beds, Loose end.
        try assertOrder([FetchSortDescriptor(key: "project.rank", nils: .last)],
                        ["Buy milk", "Call mom", "Fix roof", "Write report", "Plan trip", "Weed beds", "Loose end"])
    }

    func testTypedKeyPathsThroughToOnes() throws {
        try assertOrder([FetchSortDescriptor(\RPTask.project?.owner?.name, nils: .first), FetchSortDescriptor(\.title)],
                        ["Loose end", "Weed beds", "Buy milk", "Call mom", "Fix roof", "Plan trip", "Write report"])
        try assertOrder([FetchSortDescriptor(\RPTask.blocker?.rank, order: .reverse, nils: .last), FetchSortDescriptor(\.title)],
                        ["Write report", "Buy milk", "Call mom", "Fix roof", "Loose end", "Plan trip", "Weed beds"])
        try assertOrder([FetchSortDescriptor(\RPTask.project?.name, comparison: .caseInsensitive), FetchSortDescriptor(\.rank)],
                        ["Weed beds", "Loose end", "Fix roof", "Buy milk", "Call mom", "Plan trip", "Write report"])
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func testFoundationSortDescriptorsThroughToOnes() throws {
        let fixture = try PredicateGraphFixture()
        let request = FetchRequest<RPTask>(sortBy: [SortDescriptor(\RPTask.project?.name, order: .reverse), SortDescriptor(\RPTask.title)])
        XCTAssertEqual(try fixture.container.newContext().fetch(request).map(\.title),
                       ["Plan trip", "Write report", "Buy milk", "Call mom", "Fix roof", "Loose end", "Weed beds"])
    }

    func testPendingRenamesMoveObjects() throws {
        let fixture = try PredicateGraphFixture()
        fixture.projects["Home"]?.name = "Zed"
        let request = FetchRequest<RPTask>(sortBy: [FetchSortDescriptor(key: "project.name", nils: .last), FetchSortDescriptor(\.title)])
        let expected = ["Plan trip", "Write report", "Buy milk", "Call mom", "Fix roof", "Loose end", "Weed beds"]
        XCTAssertEqual(try fixture.context.fetch(request).map(\.title), expected)
        var window = request
        window.fetchLimit = 2
        XCTAssertEqual(try fixture.context.fetch(window).map(\.title), Array(expected.prefix(2)))
        try fixture.context.save()
        XCTAssertEqual(try fixture.container.newContext().fetch(request).map(\.title), expected)
    }

    /// `FetchSortDescriptor(key:)` takes its root from the request, alone or beside typed
    /// descriptors (issue 25, item 13: these did not compile).
    func testStringKeysTakeTheirRootFromTheRequest() throws {
        let fixture = try PredicateGraphFixture()
        let alone = FetchRequest<RPTask>(sortBy: [FetchSortDescriptor(key: "project.name")])
        let mixed = FetchRequest<RPTask>(sortBy: [FetchSortDescriptor(key: "project.name"), FetchSortDescriptor(\.title)])
        let typedFirst = FetchRequest<RPTask>(sortBy: [FetchSortDescriptor(\.done), FetchSortDescriptor(key: "project.name")])
        let expected = ["Loose end", "Weed beds", "Buy milk", "Call mom", "Fix roof", "Plan trip", "Write report"]
        XCTAssertEqual(try fixture.context.fetch(mixed).map(\.title), expected)
        XCTAssertEqual(try fixture.context.fetch(alone).map(\.title).count, expected.count)
        XCTAssertEqual(try fixture.context.fetch(typedFirst).count, expected.count)
        let document = FetchRequest<ManagedObject>(entityName: "RPTask", sortBy: [FetchSortDescriptor(key: "title")])
        XCTAssertEqual(try fixture.context.fetch(document).count, expected.count)
    }

    /// A to-many has no one value to sort by: the error says what can be sorted by, not
    /// `ANY tags.name`, which is a predicate (issue 25, item 16).
    func testSortingByAToManySaysWhatCanBeSorted() throws {
        let fixture = try PredicateGraphFixture()
        for key in ["tags.name", "tags", "project.tasks.title"] {
            expectError(try fixture.context.fetch(FetchRequest<RPTask>(sortBy: [FetchSortDescriptor(key: key)])), .invalidRequest, key) { error in
                XCTAssertFalse(error.message.contains("ANY"), "\(key): \(error.message)")
                XCTAssertFalse(error.message.contains("SUBQUERY"), "\(key): \(error.message)")
                XCTAssertTrue(error.message.contains("to-one"), "suggests a to-one's attribute: \(error.message)")
                XCTAssertEqual(error.attribute, key)
            }
        }
    }

    func testSortsThatCannotBeMade() throws {
        let fixture = try PredicateGraphFixture()
        let cases: [(FetchSortDescriptor<RPTask>, String)] = [
            (FetchSortDescriptor(key: "tags.name"), "RPTask.tags is a to-many relationship"),
            (FetchSortDescriptor(key: "project"), "it is a relationship, not an attribute"),
            (FetchSortDescriptor(key: "project.colour"), "Unknown key 'colour'"),
            (FetchSortDescriptor(key: "project.name.first"), "Unknown key"),
            (FetchSortDescriptor(key: ""), "Unknown key"),
            (FetchSortDescriptor(key: "project..name"), "Unknown key"),
        ]
        for (sort, message) in cases {
            expectError(try fixture.context.fetch(FetchRequest<RPTask>(sortBy: [sort])), .invalidRequest, sort.key) { error in
                XCTAssertTrue(error.message.contains(message), "\(sort.key): \(error.message)")
            }
        }
    }
}
