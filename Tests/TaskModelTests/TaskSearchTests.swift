import Foundation
import PersistKit
import TaskModel
import XCTest

/// Search: over name and notes, ignoring case and diacritics, combined with the filter.
final class TaskSearchTests: XCTestCase {
    func testSearchIgnoresCaseAndDiacritics() throws {
        let fixture = try TaskStoreFixture()
        try fixture.store.add(name: "Buy an éclair")
        try fixture.store.add(name: "Buy bread")
        XCTAssertEqual(try fixture.store.tasks(.all, matching: "ÉCLAIR").names, ["Buy an éclair"])
        XCTAssertEqual(try fixture.store.tasks(.all, matching: "eclair").names, ["Buy an éclair"])
        XCTAssertEqual(try fixture.store.tasks(.all, matching: "BUY").names, ["Buy an éclair", "Buy bread"])
    }

    func testSearchLooksInNotes() throws {
        let fixture = try TaskStoreFixture()
        try fixture.store.add(name: "Shopping", notes: "Crème fraîche\nand eggs")
        try fixture.store.add(name: "Call mom")
        XCTAssertEqual(try fixture.store.tasks(.all, matching: "creme FRAICHE").names, ["Shopping"])
        XCTAssertEqual(try fixture.store.tasks(.all, matching: "eggs").names, ["Shopping"])
        XCTAssertEqual(try fixture.store.tasks(.all, matching: "mom").names, ["Call mom"])
        XCTAssertEqual(try fixture.store.tasks(.all, matching: "nothing like it").names, [])
    }

    func testSearchCombinesWithFilter() throws {
        let fixture = try TaskStoreFixture()
        let done = try fixture.store.add(name: "Buy milk")
        try fixture.store.add(name: "Buy more milk")
        try fixture.store.toggleIsComplete(done)
        XCTAssertEqual(try fixture.store.tasks(.completed, matching: "milk").names, ["Buy milk"])
        XCTAssertEqual(try fixture.store.tasks(.incomplete, matching: "milk").names, ["Buy more milk"])
        XCTAssertEqual(try fixture.store.count(.all, matching: "MILK"), 2)
    }

    func testBlankSearchMatchesEverything() throws {
        let fixture = try TaskStoreFixture()
        try fixture.store.add(name: "One")
        try fixture.store.add(name: "Two")
        XCTAssertEqual(try fixture.store.tasks(.all, matching: "  ").count, 2)
        XCTAssertNil(TaskStore.predicate(.all, matching: ""))
    }

    func testSearchInResultsController() throws {
        let fixture = try TaskStoreFixture()
        try fixture.store.add(name: "Buy an éclair")
        try fixture.store.add(name: "Buy bread")
        let results = fixture.store.resultsController(filter: .all, matching: "ÉCLAIR")
        try results.performFetch()
        XCTAssertEqual(results.fetchedObjects.names, ["Buy an éclair"])
        try fixture.store.add(name: "Another eclair")
        XCTAssertEqual(results.fetchedObjects.names, ["Buy an éclair", "Another eclair"])
    }
}
