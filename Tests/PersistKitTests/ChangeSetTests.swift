import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// ChangeSet (replay, validation), the IndexPath row accessors, and the results diff engine,
/// against named scenarios and a generated oracle.
final class ChangeSetTests: XCTestCase {

    // MARK: - A tiny results list model

    /// An object in a sorted results list: sorted by (section, sort, id); sections named by key.
    struct Item: Equatable {
        var id: Int
        var section: Int
        var sort: Int
    }

    /// Sorts items, and gives their layout and their ids per section.
    static func arrange(_ items: [Item]) -> (sorted: [Item], layout: SectionLayout, lists: [[Int]]) {
        let sorted = items.sorted { ($0.section, $0.sort, $0.id) < ($1.section, $1.sort, $1.id) }
        var names: [String] = [], starts: [Int] = [], lists: [[Int]] = []
        for (position, item) in sorted.enumerated() {
            if position == 0 || sorted[position - 1].section != item.section {
                names.append(Self.name(item.section))
                starts.append(position)
                lists.append([])
            }
            lists[lists.count - 1].append(item.id)
        }
        return (sorted, SectionLayout(names: names, starts: starts, count: sorted.count), lists)
    }

    static func name(_ section: Int) -> String { "s\(section)" }

    /// The diff input between two lists; `touched` are ids updated even if their keys did not change.
    static func input(old: [Item], new: [Item], touched: Set<Int> = []) -> (ResultsDiffInput, oldLists: [[Int]], newLists: [[Int]], updatedIDs: Set<Int>) {
        let before = arrange(old), after = arrange(new)
        var oldPosition: [Int: Int] = [:], newPosition: [Int: Int] = [:]
        for (position, item) in before.sorted.enumerated() { oldPosition[item.id] = position }
        for (position, item) in after.sorted.enumerated() { newPosition[item.id] = position }
        var input = ResultsDiffInput(old: before.layout, new: after.layout)
        var updatedIDs = Set<Int>()
        for (position, item) in before.sorted.enumerated() {
            guard let newIndex = newPosition[item.id] else {
                input.removed.append(position)
                continue
            }
            if after.sorted[newIndex] != item || touched.contains(item.id) {
                input.updated.append((position, newIndex))
                updatedIDs.insert(item.id)
            }
        }
        for item in after.sorted where oldPosition[item.id] == nil {
            input.inserted.append(newPosition[item.id] ?? -1)
        }
        return (input, before.lists, after.lists, updatedIDs)
    }

    static func path(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }

    /// The change set between two lists, checked to be valid and to replay old into new.
    func diff(old: [Item], new: [Item], touched: Set<Int> = [], file: StaticString = #filePath, line: UInt = #line) throws -> ChangeSet {
        let (input, oldLists, newLists, _) = Self.input(old: old, new: new, touched: touched)
        let changes = try ResultsDiff.incrementalChangeSet(for: input).get()
        try changes.validate(oldSectionCounts: oldLists.map(\.count), newSectionCounts: newLists.map(\.count))
        let replayed = try changes.applied(to: oldLists) { path, old in old ?? newLists[path.section][path.item] }
        XCTAssertEqual(replayed, newLists, "replay", file: file, line: line)
        return changes
    }

    // MARK: - Named scenarios

    func testEmptyChangeSetIsEmpty() throws {
        let items = [Item(id: 1, section: 0, sort: 1), Item(id: 2, section: 1, sort: 1)]
        let changes = try diff(old: items, new: items)
        XCTAssertTrue(changes.isEmpty)
        XCTAssertEqual(changes, ChangeSet())
        XCTAssertEqual(changes.description, "ChangeSet(empty)")
        XCTAssertTrue(try diff(old: [], new: []).isEmpty)
        XCTAssertEqual(try ChangeSet().applied(to: [[1, 2], [3]]) { _, old in old ?? 0 }, [[1, 2], [3]])
    }

    func testSectionDeletedWithADeleteAndAnInsertOutOfIt() throws {
        // s0: 1 2 | s1: 3 5 | s2: 4. Object 3 is removed, 5 goes to s2 (after 4): s1 disappears.
        let old = [Item(id: 1, section: 0, sort: 1), Item(id: 2, section: 0, sort: 2),
                   Item(id: 3, section: 1, sort: 1), Item(id: 5, section: 1, sort: 2),
                   Item(id: 4, section: 2, sort: 1)]
        var new = old.filter { $0.id != 3 }
        new[2].section = 2
        new[2].sort = 9
        let changes = try diff(old: old, new: new)
        XCTAssertEqual(changes, ChangeSet(
            deletedSections: [1], deletedRows: [Self.path(1, 0), Self.path(1, 1)],
            insertedRows: [Self.path(1, 1)]))
        XCTAssertEqual(changes.description, "ChangeSet(deleted sections: 1; deleted rows: [1, 0], [1, 1]; inserted rows: [1, 1])")
    }

    func testSwapOfTwoNeighboursIsOneMove() throws {
        let old = [Item(id: 1, section: 0, sort: 10), Item(id: 2, section: 0, sort: 20), Item(id: 3, section: 0, sort: 30)]
        var new = old
        new[0].sort = 25                                  // 2 1 3
        let changes = try diff(old: old, new: new)
        XCTAssertEqual(changes, ChangeSet(movedRows: [(Self.path(0, 0), Self.path(0, 1))]))

        // Both neighbours changed: one moves, the other is an update.
        new[1].sort = 15                                  // 2 1 3 still
        let both = try diff(old: old, new: new)
        XCTAssertEqual(both.movedRows.count, 1)
        XCTAssertEqual(both.updatedRows.count, 1)
        XCTAssertTrue(both.deletedRows.isEmpty && both.insertedRows.isEmpty)
    }

    func testUpdateInPlace() throws {
        let old = [Item(id: 1, section: 0, sort: 10), Item(id: 2, section: 0, sort: 20), Item(id: 3, section: 0, sort: 30)]
        let touched = try diff(old: old, new: old, touched: [2])
        XCTAssertEqual(touched, ChangeSet(updatedRows: [(Self.path(0, 1), Self.path(0, 1))]))
        // A changed sort key that keeps the row's place is an update too, never a move to itself.
        var new = old
        new[1].sort = 29
        XCTAssertEqual(try diff(old: old, new: new), touched)
    }

    func testUpdateShiftedByAnInsertBeforeItIsStillAnUpdate() throws {
        let old = [Item(id: 1, section: 0, sort: 10), Item(id: 2, section: 0, sort: 20)]
        let new = [Item(id: 0, section: 0, sort: 5)] + old
        let changes = try diff(old: old, new: new, touched: [2])
        XCTAssertEqual(changes, ChangeSet(insertedRows: [Self.path(0, 0)], updatedRows: [(Self.path(0, 1), Self.path(0, 2))]))
        // And shifted by a delete before it.
        let fewer = try diff(old: old, new: [old[1]], touched: [2])
        XCTAssertEqual(fewer, ChangeSet(deletedRows: [Self.path(0, 0)], updatedRows: [(Self.path(0, 1), Self.path(0, 0))]))
    }

    func testInsertIntoANewSection() throws {
        let old = [Item(id: 1, section: 0, sort: 1), Item(id: 2, section: 2, sort: 1)]
        let new = old + [Item(id: 3, section: 1, sort: 1), Item(id: 4, section: 1, sort: 2)]
        let changes = try diff(old: old, new: new)
        XCTAssertEqual(changes, ChangeSet(insertedSections: [1], insertedRows: [Self.path(1, 0), Self.path(1, 1)]))
    }

    func testMoveIntoAnInsertedSectionIsADeleteAndAnInsert() throws {
        let old = [Item(id: 1, section: 0, sort: 1), Item(id: 2, section: 0, sort: 2)]
        var new = old
        new[1].section = 1
        let changes = try diff(old: old, new: new)
        XCTAssertEqual(changes, ChangeSet(insertedSections: [1], deletedRows: [Self.path(0, 1)], insertedRows: [Self.path(1, 0)]))
    }

    func testMoveBetweenSurvivingSections() throws {
        let old = [Item(id: 1, section: 0, sort: 1), Item(id: 2, section: 0, sort: 2), Item(id: 3, section: 1, sort: 1)]
        var new = old
        new[0].section = 1
        new[0].sort = 5
        let changes = try diff(old: old, new: new)
        XCTAssertEqual(changes, ChangeSet(movedRows: [(Self.path(0, 0), Self.path(1, 1))]))
    }

    func testEverythingDeleted() throws {
        let old = [Item(id: 1, section: 0, sort: 1), Item(id: 2, section: 0, sort: 2), Item(id: 3, section: 4, sort: 1)]
        let changes = try diff(old: old, new: [])
        XCTAssertEqual(changes, ChangeSet(deletedSections: [0, 1], deletedRows: [Self.path(0, 0), Self.path(0, 1), Self.path(1, 0)]))
        // And everything inserted.
        XCTAssertEqual(try diff(old: [], new: old),
                       ChangeSet(insertedSections: [0, 1], insertedRows: [Self.path(0, 0), Self.path(0, 1), Self.path(1, 0)]))
    }

    func testSectionEmptiedAndRefilledIsKept() throws {
        let old = [Item(id: 1, section: 0, sort: 1), Item(id: 2, section: 1, sort: 1)]
        let new = [Item(id: 1, section: 0, sort: 1), Item(id: 3, section: 1, sort: 1)]
        XCTAssertEqual(try diff(old: old, new: new), ChangeSet(deletedRows: [Self.path(1, 0)], insertedRows: [Self.path(1, 0)]))
    }

    func testAnchorGapDecidesMoves() throws {
        // 1 2 [3] 4 5, with 2 and 4 updated: 4 jumps before the unchanged 3 -> a move; 2 stays.
        let old = (1...5).map { Item(id: $0, section: 0, sort: $0 * 10) }
        var new = old
        new[3].sort = 25
        let changes = try diff(old: old, new: new, touched: [2])
        XCTAssertEqual(changes, ChangeSet(movedRows: [(Self.path(0, 3), Self.path(0, 2))],
                                          updatedRows: [(Self.path(0, 1), Self.path(0, 1))]))
    }

    func testReversedRunMovesAllButOne() throws {
        let old = (1...6).map { Item(id: $0, section: 0, sort: $0 * 10) }
        let new = old.map { Item(id: $0.id, section: 0, sort: 70 - $0.sort) }
        let changes = try diff(old: old, new: new)
        XCTAssertEqual(changes.movedRows.count, 5)
        XCTAssertEqual(changes.updatedRows.count, 1)
    }

    // MARK: - Diff engine: inconsistent input, cost

    func testInconsistentInputFallsBackToAValidReload() throws {
        let layout = SectionLayout(names: ["a", "b"], counts: [2, 1])
        let cases: [(String, ResultsDiffInput)] = [
            ("malformed layout", ResultsDiffInput(old: SectionLayout(names: ["a"], starts: [0, 1], count: 2), new: layout)),
            ("empty section", ResultsDiffInput(old: SectionLayout(names: ["a", "b"], starts: [0, 0], count: 2), new: layout)),
            ("position out of range", ResultsDiffInput(old: layout, new: layout, removed: [3], inserted: [0])),
            ("position twice", ResultsDiffInput(old: layout, new: layout, removed: [1], inserted: [0], updated: [(1, 1)])),
            ("counts differ", ResultsDiffInput(old: layout, new: layout, removed: [1])),
            ("unchanged changes section", ResultsDiffInput(old: layout, new: SectionLayout(names: ["a", "b"], counts: [1, 2]))),
            ("sections reorder", ResultsDiffInput(old: layout, new: SectionLayout(names: ["b", "a"], counts: [1, 2]))),
        ]
        for (name, input) in cases {
            guard case .failure(let problem) = ResultsDiff.incrementalChangeSet(for: input) else {
                XCTFail("\(name): accepted")
                continue
            }
            XCTAssertFalse(problem.description.isEmpty)
            let changes = ResultsDiff.changeSet(for: input)
            if input.old.problem == nil, input.new.problem == nil {
                let oldCounts = (0..<input.old.sectionCount).map(input.old.rowCount(of:))
                let newCounts = (0..<input.new.sectionCount).map(input.new.rowCount(of:))
                XCTAssertNoThrow(try changes.validate(oldSectionCounts: oldCounts, newSectionCounts: newCounts), name)
                let old = oldCounts.map { Array(repeating: 0, count: $0) }
                XCTAssertEqual(try changes.applied(to: old) { _, _ in 1 }, newCounts.map { Array(repeating: 1, count: $0) }, name)
            }
        }
    }

    func testDuplicateSectionNamesStayValid() throws {
        // Names that repeat (a section key whose names collide) are matched by occurrence.
        let old = SectionLayout(names: ["a", "b", "a"], counts: [1, 1, 1])
        let same = ResultsDiffInput(old: old, new: old, updated: [(2, 2)])
        XCTAssertEqual(ResultsDiff.changeSet(for: same), ChangeSet(updatedRows: [(Self.path(2, 0), Self.path(2, 0))]))
        let merged = ResultsDiffInput(old: old, new: SectionLayout(names: ["a"], counts: [2]), removed: [1], updated: [(2, 1)])
        let changes = try ResultsDiff.incrementalChangeSet(for: merged).get()
        // The second "a" has no match: it is deleted, and its object comes back by an insert.
        XCTAssertEqual(changes, ChangeSet(deletedSections: [1, 2], deletedRows: [Self.path(1, 0), Self.path(2, 0)],
                                          insertedRows: [Self.path(0, 1)]))
        try changes.validate(oldSectionCounts: [1, 1, 1], newSectionCounts: [2])
        XCTAssertEqual(try changes.applied(to: [[1], [2], [3]]) { _, old in old ?? 3 }, [[1, 3]])
    }

    /// A billion rows in 1,000 sections: a diff that walked or copied the rows would need
    /// gigabytes and minutes, so this finishing at all shows it does not; how fast it is
    /// (per change, as the rows grow) is the Benchmarks package's `controller-one-change`
    /// scale row, not a timed test.
    func testOneChangeAmongABillionRows() throws {
        let rows = 1_000_000_000, sectionCount = 1_000
        let layout = SectionLayout(names: (0..<sectionCount).map { "s\($0)" },
                                   starts: (0..<sectionCount).map { $0 * (rows / sectionCount) }, count: rows)
        // Object 123 of section 500 moves to row 456 of section 700.
        let afterMove = SectionLayout(names: layout.names, starts: layout.starts.enumerated().map { 501...700 ~= $0.offset ? $0.element - 1 : $0.element }, count: rows)
        let moved = ResultsDiffInput(old: layout, new: afterMove, updated: [(500_000_123, afterMove.starts[700] + 456)])
        let afterRemove = SectionLayout(names: layout.names, starts: layout.starts.enumerated().map { $0.offset > 400 ? $0.element - 1 : $0.element }, count: rows - 1)
        let removed = ResultsDiffInput(old: layout, new: afterRemove, removed: [400_000_000])
        XCTAssertEqual(ResultsDiff.changeSet(for: moved), ChangeSet(movedRows: [(Self.path(500, 123), Self.path(700, 456))]))
        XCTAssertEqual(ResultsDiff.changeSet(for: removed), ChangeSet(deletedRows: [Self.path(400, 0)]))
    }

    func testLongestIncreasingSubsequence() {
        XCTAssertEqual(ResultsDiff.longestIncreasingSubsequence([]), [])
        XCTAssertEqual(ResultsDiff.longestIncreasingSubsequence([4]), [true])
        XCTAssertEqual(ResultsDiff.longestIncreasingSubsequence([3, 1, 2]), [false, true, true])
        XCTAssertEqual(ResultsDiff.longestIncreasingSubsequence([5, 1, 6, 2, 7, 3, 4]).filter { $0 }.count, 4)
    }

    // MARK: - ChangeSet.validate and applied(to:)

    func assertMisuse(_ changes: ChangeSet, old: [Int], new: [Int], mentions text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try changes.validate(oldSectionCounts: old, newSectionCounts: new), file: file, line: line) { error in
            guard let error = error as? PersistError else { return XCTFail("not a PersistError: \(error)", file: file, line: line) }
            XCTAssertEqual(error.code, .misuse, file: file, line: line)
            XCTAssertTrue(error.message.contains(text), "\(error.message) does not mention \(text)", file: file, line: line)
        }
    }

    func testValidateRejectsEachBrokenRule() {
        let p = Self.path
        assertMisuse(ChangeSet(deletedSections: [2]), old: [1, 1], new: [1], mentions: "deleted section 2 is out of range")
        assertMisuse(ChangeSet(insertedSections: [3]), old: [1], new: [1, 0], mentions: "inserted section 3 is out of range")
        assertMisuse(ChangeSet(deletedSections: [0]), old: [1, 1], new: [1, 1], mentions: "section count does not add up")
        assertMisuse(ChangeSet(deletedRows: [p(0, 2)]), old: [2], new: [1], mentions: "deleted row [0, 2] is out of range")
        assertMisuse(ChangeSet(deletedRows: [IndexPath(index: 0)]), old: [2], new: [1], mentions: "does not name a row")
        assertMisuse(ChangeSet(deletedRows: [p(0, 0), p(0, 0)]), old: [2], new: [0], mentions: "named twice in the old state")
        assertMisuse(ChangeSet(insertedRows: [p(0, 0), p(0, 0)]), old: [0], new: [2], mentions: "named twice in the new state")
        assertMisuse(ChangeSet(insertedRows: [p(0, 5)]), old: [0], new: [2],
                     mentions: "0 rows - 0 deleted - 0 moved out + 1 inserted + 0 moved in = 1, but the new state has 2")
        assertMisuse(ChangeSet(insertedSections: [1], insertedRows: [p(1, 0)]), old: [1], new: [1, 2],
                     mentions: "inserted section 1 has 1 inserted + 0 moved in = 1 rows, but the new state has 2")
        assertMisuse(ChangeSet(insertedRows: [p(0, 5)]), old: [4], new: [5], mentions: "inserted row [0, 5] is out of range")
        assertMisuse(ChangeSet(movedRows: [(p(0, 0), p(0, 1))], updatedRows: [(p(0, 0), p(0, 1))]), old: [2], new: [2],
                     mentions: "both moved and updated")
        assertMisuse(ChangeSet(deletedSections: [0], insertedSections: [0], movedRows: [(p(0, 0), p(1, 0))]), old: [1, 1], new: [0, 2],
                     mentions: "leaves deleted section 0")
        assertMisuse(ChangeSet(insertedSections: [1], movedRows: [(p(0, 0), p(1, 0))]), old: [2], new: [1, 1],
                     mentions: "enters inserted section 1")
        assertMisuse(ChangeSet(insertedRows: [p(0, 0)]), old: [2], new: [2], mentions: "row count of new section 0 does not add up")
        assertMisuse(ChangeSet(movedRows: [(p(0, 0), p(1, 0))]), old: [1, 1], new: [1, 1], mentions: "old section 0 has 1 rows - 0 deleted - 1 moved out")
        assertMisuse(ChangeSet(updatedRows: [(p(0, 0), p(1, 0))]), old: [1, 1], new: [1, 1], mentions: "changes section")
        assertMisuse(ChangeSet(insertedRows: [p(0, 0)], updatedRows: [(p(0, 1), p(0, 1))]), old: [2], new: [3],
                     mentions: "does not follow its row: the batch puts that row at [0, 2]")
        assertMisuse(ChangeSet(deletedSections: [0], updatedRows: [(p(0, 0), p(0, 0))]), old: [1, 1], new: [1],
                     mentions: "in deleted section 0")
        assertMisuse(ChangeSet(), old: [-1], new: [1], mentions: "negative")
        assertMisuse(ChangeSet(insertedRows: [p(0, 0)]), old: [Int.max], new: [Int.max], mentions: "overflows")
    }

    func testValidateAcceptsRowsOfDeletedSectionsListedOrNot() throws {
        let p = Self.path
        try ChangeSet(deletedSections: [0], deletedRows: [p(0, 0), p(0, 1)]).validate(oldSectionCounts: [2, 1], newSectionCounts: [1])
        try ChangeSet(deletedSections: [0]).validate(oldSectionCounts: [2, 1], newSectionCounts: [1])
        try ChangeSet(insertedSections: [1], insertedRows: [p(1, 0)]).validate(oldSectionCounts: [2], newSectionCounts: [2, 1])
    }

    func testAppliedReplaysABatchWithUITableViewRules() throws {
        let p = Self.path
        // old: [a b c] [d e] [f]; delete section 1 (d e, d listed), delete b, move c to the front
        // of section 0, insert section 1 with x, update f (now at [2, 0]), insert y at [2, 1].
        let changes = ChangeSet(deletedSections: [1], insertedSections: [1],
                                deletedRows: [p(0, 1), p(1, 0)], insertedRows: [p(1, 0), p(2, 1)],
                                movedRows: [(p(0, 2), p(0, 0))], updatedRows: [(p(2, 0), p(2, 0))])
        let old = [["a", "b", "c"], ["d", "e"], ["f"]]
        try changes.validate(oldSectionCounts: [3, 2, 1], newSectionCounts: [2, 1, 2])
        var calls: [String] = []
        let new = try changes.applied(to: old) { path, element in
            calls.append(ChangeSet.text(path) + (element ?? "-"))
            return element.map { $0.uppercased() } ?? (path.section == 1 ? "x" : "y")
        }
        XCTAssertEqual(new, [["C", "a"], ["x"], ["F", "y"]])
        XCTAssertEqual(calls, ["[0, 0]c", "[1, 0]-", "[2, 0]f", "[2, 1]-"])
    }

    func testAppliedThrowsWhenTheChangeSetDoesNotFit() {
        let p = Self.path
        for changes in [ChangeSet(deletedRows: [p(0, 3)]), ChangeSet(deletedSections: [4]),
                        ChangeSet(movedRows: [(p(0, 0), p(3, 0))]), ChangeSet(updatedRows: [(p(0, 0), p(0, 1))])] {
            XCTAssertThrowsError(try changes.applied(to: [[1, 2]]) { _, old in old ?? 0 }) { error in
                XCTAssertEqual((error as? PersistError)?.code, .misuse)
            }
        }
        struct Stop: Error {}
        XCTAssertThrowsError(try ChangeSet(insertedRows: [p(0, 0)]).applied(to: [[1]]) { _, _ in throw Stop() }) { error in
            XCTAssertTrue(error is Stop)
        }
    }

    func testDescriptionListsEveryPart() {
        let p = Self.path
        let changes = ChangeSet(deletedSections: [0, 2], insertedSections: [1], deletedRows: [p(0, 0)], insertedRows: [p(1, 0)],
                                movedRows: [(p(1, 1), p(0, 0))], updatedRows: [(p(1, 2), p(0, 1))])
        XCTAssertEqual(changes.description, "ChangeSet(deleted sections: 0, 2; inserted sections: 1; deleted rows: [0, 0];"
            + " inserted rows: [1, 0]; moved rows: [1, 1] -> [0, 0]; updated rows: [1, 2] -> [0, 1])")
        XCTAssertFalse(changes.isEmpty)
        XCTAssertNotEqual(changes, ChangeSet(deletedSections: [0, 2]))
    }

    // MARK: - IndexPath

    func testIndexPathRowAccessors() {
        var path = IndexPath(item: 4, section: 1)
        XCTAssertEqual(Array(path), [1, 4])
        XCTAssertEqual(path.section, 1)
        XCTAssertEqual(path.item, 4)
        path.item += 1
        path.section = 2
        XCTAssertEqual(path, [2, 5])
        #if !canImport(UIKit) && !canImport(AppKit)
        // Too short: reads give NSNotFound (never a trap), writes pad with zeros.
        XCTAssertEqual(IndexPath().section, NSNotFound)
        XCTAssertEqual(IndexPath().item, NSNotFound)
        XCTAssertEqual(IndexPath(index: 3).section, 3)
        XCTAssertEqual(IndexPath(index: 3).item, NSNotFound)
        var empty = IndexPath()
        empty.item = 7
        XCTAssertEqual(empty, [0, 7])
        var short = IndexPath(index: 3)
        short.section = 1
        XCTAssertEqual(short, [1, 0])
        #endif
    }

    // MARK: - Generated oracle

    func testGeneratedChangesAgainstOracle() throws {
        let baseSeed = testSeed("ChangeSetTests.testGeneratedChangesAgainstOracle")
        let caseCount = 6_000
        var bruteForced = 0, moveTotal = 0, relocatedTotal = 0
        for index in 0..<caseCount {
            let seed = baseSeed &+ UInt64(index)
            var random = SeededGenerator(seed: seed)
            let failures = checkGeneratedCase(&random, bruteForced: &bruteForced, moves: &moveTotal, relocated: &relocatedTotal)
            if !failures.isEmpty {
                XCTFail("seed \(seed) (case \(index), PERSISTKIT_SEED=\(baseSeed)):\n  " + failures.joined(separator: "\n  "))
                return
            }
        }
        print("ResultsDiff oracle: \(caseCount) cases, \(bruteForced) checked minimal by brute force, \(moveTotal) moves, \(relocatedTotal) deletes+inserts of survivors")
        XCTAssertGreaterThan(bruteForced, caseCount / 2)
        XCTAssertGreaterThan(moveTotal, 1_000)
        XCTAssertGreaterThan(relocatedTotal, 100)
    }

    /// One generated case: the problems found, none when it passes.
    func checkGeneratedCase(_ random: inout SeededGenerator, bruteForced: inout Int, moves: inout Int, relocated: inout Int) -> [String] {
        let keys = Int.random(in: 1...5, using: &random)                  // section keys in use: 0..<keys
        let size = Int.random(in: 0...60, using: &random)
        let sortRange = Int.random(in: 1...30, using: &random)
        let old = (0..<size).map { Item(id: $0, section: Int.random(in: 0..<keys, using: &random), sort: Int.random(in: 0..<sortRange, using: &random)) }
        let rates = [0.0, 0.05, 0.2, 0.5, 1.0]
        let removeRate = rates.randomElement(using: &random) ?? 0
        let updateRate = rates.randomElement(using: &random) ?? 0
        var new: [Item] = []
        var touched = Set<Int>()
        for var item in old {
            if Double.random(in: 0..<1, using: &random) < removeRate { continue }
            if Double.random(in: 0..<1, using: &random) < updateRate {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: item.sort = Int.random(in: 0..<sortRange, using: &random)
                case 1: item.section = Int.random(in: 0...keys, using: &random)
                case 2:
                    item.sort = Int.random(in: 0..<sortRange, using: &random)
                    item.section = Int.random(in: 0...keys, using: &random)
                default: touched.insert(item.id)
                }
            }
            new.append(item)
        }
        let insertCount = [0, 0, 1, 3, 20].randomElement(using: &random) ?? 0
        for id in size..<(size + insertCount) {
            new.append(Item(id: id, section: Int.random(in: 0...keys, using: &random), sort: Int.random(in: 0..<sortRange, using: &random)))
        }

        let (input, oldLists, newLists, updatedIDs) = Self.input(old: old, new: new, touched: touched)
        var problems: [String] = []
        let changes: ChangeSet
        switch ResultsDiff.incrementalChangeSet(for: input) {
        case .success(let result): changes = result
        case .failure(let problem): return ["inconsistent input: \(problem)"]
        }
        let context = "old \(oldLists), new \(newLists), updated \(updatedIDs.sorted()), change \(changes)"
        func fail(_ what: String) { problems.append(what + "; " + context) }

        // Valid, and replays old into new.
        do {
            try changes.validate(oldSectionCounts: oldLists.map(\.count), newSectionCounts: newLists.map(\.count))
        } catch {
            fail("invalid: \(error)")
        }
        var suppliedByInsert: [Int] = []
        do {
            let replayed = try changes.applied(to: oldLists) { path, old in
                if let old { return old }
                let id = newLists[path.section][path.item]
                suppliedByInsert.append(id)
                return id
            }
            if replayed != newLists { fail("replay gives \(replayed)") }
        } catch {
            fail("replay throws: \(error)")
        }
        guard problems.isEmpty else { return problems }

        // Who is reported how.
        func oldID(_ path: IndexPath) -> Int { oldLists[path.section][path.item] }
        func newID(_ path: IndexPath) -> Int { newLists[path.section][path.item] }
        let oldIDs = Set(old.map(\.id)), newIDs = Set(new.map(\.id))
        let removedIDs = oldIDs.subtracting(newIDs), insertedIDs = newIDs.subtracting(oldIDs)
        let deletedIDs = changes.deletedRows.map(oldID), insertedRowIDs = changes.insertedRows.map(newID)
        let relocatedIDs = Set(deletedIDs).subtracting(removedIDs)
        if Set(deletedIDs).count != deletedIDs.count || Set(insertedRowIDs).count != insertedRowIDs.count { fail("row named twice") }
        if Set(insertedRowIDs) != insertedIDs.union(relocatedIDs) { fail("inserted rows are not the inserted objects plus relocated survivors") }
        if !relocatedIDs.isSubset(of: updatedIDs) || !removedIDs.isSubset(of: Set(deletedIDs)) { fail("deleted rows are not the removed objects plus relocated survivors") }
        if suppliedByInsert.sorted() != insertedRowIDs.sorted() { fail("replay asked for inserts other than the inserted rows") }
        var reported = Array(relocatedIDs)
        for move in changes.movedRows {
            if oldID(move.from) != newID(move.to) { fail("move \(move) is not one object") }
            reported.append(oldID(move.from))
        }
        for update in changes.updatedRows {
            if oldID(update.from) != newID(update.to) { fail("update \(update) is not one object") }
            reported.append(oldID(update.from))
        }
        if reported.sorted() != updatedIDs.sorted() {
            fail("updated objects are not each reported once as a move, an update or a delete and insert (unchanged ones never)")
        }

        // Sections by name; moves only between surviving sections.
        let oldNames = Set(input.old.names), newNames = Set(input.new.names)
        let deletedSections = IndexSet(input.old.names.indices.filter { !newNames.contains(input.old.names[$0]) })
        let insertedSections = IndexSet(input.new.names.indices.filter { !oldNames.contains(input.new.names[$0]) })
        if changes.deletedSections != deletedSections || changes.insertedSections != insertedSections { fail("sections") }
        for move in changes.movedRows where deletedSections.contains(move.from.section) || insertedSections.contains(move.to.section) {
            fail("move \(move) across a deleted or inserted section")
        }
        for id in relocatedIDs {
            let from = changes.deletedRows[deletedIDs.firstIndex(of: id) ?? 0]
            let to = changes.insertedRows[insertedRowIDs.firstIndex(of: id) ?? 0]
            if !deletedSections.contains(from.section) && !insertedSections.contains(to.section) {
                fail("survivor \(id) deleted and inserted instead of moved")
            }
        }

        // Sorted.
        if changes.deletedRows != changes.deletedRows.sorted() || changes.insertedRows != changes.insertedRows.sorted() { fail("rows not sorted") }
        if changes.movedRows.map(\.to) != changes.movedRows.map(\.to).sorted() { fail("moves not sorted by destination") }
        if changes.updatedRows.map(\.to) != changes.updatedRows.map(\.to).sorted() { fail("updates not sorted") }

        // Minimal: no smaller set of survivors can be relocated while the unchanged ones stay.
        moves += changes.movedRows.count
        relocated += relocatedIDs.count
        let relocations = changes.movedRows.count + relocatedIDs.count
        if updatedIDs.count <= 10 {
            bruteForced += 1
            let minimum = Self.minimumRelocations(old: old, new: new, updated: updatedIDs.sorted())
            if relocations != minimum { fail("\(relocations) survivors relocated, \(minimum) is the minimum") }
        }
        return problems
    }

    /// The fewest updated survivors to relocate so that the others, with the unchanged ones, keep
    /// their section and their relative order: by trying every subset.
    static func minimumRelocations(old: [Item], new: [Item], updated: [Int]) -> Int {
        let before = arrange(old).sorted, after = arrange(new).sorted
        let newByID = Dictionary(uniqueKeysWithValues: after.map { ($0.id, $0) })
        let updatedIndex = Dictionary(uniqueKeysWithValues: updated.enumerated().map { ($0.element, $0.offset) })
        var best = updated.count
        for staying in 0..<(1 << updated.count) {
            let relocations = updated.count - staying.nonzeroBitCount
            if relocations >= best { continue }
            func stays(_ item: Item) -> Bool {
                guard let now = newByID[item.id] else { return false }
                guard let bit = updatedIndex[item.id] else { return true }          // unchanged
                return staying & (1 << bit) != 0 && now.section == item.section
            }
            let oldOrder = before.filter(stays).map(\.id)
            let kept = Set(oldOrder)
            if updated.indices.contains(where: { staying & (1 << $0) != 0 && !kept.contains(updated[$0]) }) { continue }
            if after.filter({ kept.contains($0.id) }).map(\.id) == oldOrder { best = relocations }
        }
        return best
    }
}
