import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The format parser's limits: nesting depth, long chains.
final class PredicateFormatLimitTests: PredicateFormatTestCase {
    // MARK: - Limits

    func testNestingLimits() {
        let fine = String(repeating: "(", count: 100) + "a == 1" + String(repeating: ")", count: 100)
        assertRender(fine, "a == 1")
        let tooDeep = String(repeating: "(", count: 101) + "a == 1" + String(repeating: ")", count: 101)
        assertError(tooDeep, position: 100, "nested too deeply")
        let hostile = String(repeating: "(", count: 200_000)
        assertError(hostile, position: 100, "nested too deeply")
        let braces = "a IN " + String(repeating: "{", count: 200_000)
        assertError(braces, position: 105, "nested too deeply")
        // NOTs in a row cancel in pairs, however many there are.
        let nots = String(repeating: "!", count: 200_000) + "a == 1"
        assertRender(nots, "a == 1")
        let notWords = String(repeating: "NOT ", count: 99_999) + "a == 1"
        assertRender(notWords, "NOT a == 1")
    }

    /// AND/OR groups nest at most 32 levels (a group inside a group of the other kind); groups of
    /// one kind inside each other and parentheses around one term do not count.
    func testGroupNestingLimit() {
        func alternating(_ levels: Int) -> String {
            var format = "a == 0"
            for level in 1...levels { format = "a == \(level) \(level % 2 == 0 ? "AND" : "OR") (\(format))" }
            return format
        }
        XCTAssertNoThrow(try PredicateFormatParser.parse(alternating(32), arguments: []))
        // The 33rd level is made by the outermost operator, after "a == 33 ".
        assertError(alternating(33), position: 8, "AND/OR groups more than 32 levels deep")
        let sameKind = (0..<90).reduce("a == 0") { format, level in "a == \(level) AND (\(format))" }
        XCTAssertNoThrow(try PredicateFormatParser.parse(sameKind, arguments: []))
        // NOT turns an AND into an OR (De Morgan), so NOT (x AND y) inside an OR does not add a level.
        assertRender("a == 1 OR NOT (b == 1 AND c == 1)", "(a == 1 OR NOT (b == 1 AND c == 1))")
        let viaNot = (0..<33).reduce("a == 0") { format, level in "a == \(level) OR NOT (\(format))" }
        assertError(viaNot, position: 8, "more than 32 levels deep")
    }

    func testLongChains() throws {
        let conjunction = Array(repeating: "a == 1", count: 100_000).joined(separator: " AND ")
        guard case .and(let terms) = try PredicateFormatParser.parse(conjunction, arguments: []) else {
            return XCTFail("expected one AND")
        }
        XCTAssertEqual(terms.count, 100_000)
        let disjunction = Array(repeating: "a == 1", count: 100_000).joined(separator: " || ")
        guard case .or(let alternatives) = try PredicateFormatParser.parse(disjunction, arguments: []) else {
            return XCTFail("expected one OR")
        }
        XCTAssertEqual(alternatives.count, 100_000)
        let bigList = "a IN {" + Array(repeating: "1", count: 100_000).joined(separator: ",") + "}"
        guard case .comparison(_, _, _, .value(.list(let items), _), _) = try PredicateFormatParser.parse(bigList, arguments: []) else {
            return XCTFail("expected a comparison")
        }
        XCTAssertEqual(items.count, 100_000)
    }
}
