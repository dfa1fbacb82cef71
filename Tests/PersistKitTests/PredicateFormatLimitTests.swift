import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The format parser's limits: nesting depth, long chains.
final class PredicateFormatLimitTests: PredicateFormatTestCase {
    // MARK: - Limits

    func testNestingLimits() {
        let limit = PredicateFormatParser.maximumNesting
        XCTAssertEqual(limit, PredicateNode.maximumNesting, "each level of groups needs its parentheses")
        let fine = String(repeating: "(", count: limit) + "a == 1" + String(repeating: ")", count: limit)
        assertRender(fine, "a == 1")
        let tooDeep = String(repeating: "(", count: limit + 1) + "a == 1" + String(repeating: ")", count: limit + 1)
        assertError(tooDeep, position: limit, "more than \(limit) levels of parentheses")
        let hostile = String(repeating: "(", count: 200_000)
        assertError(hostile, position: limit, "nested too deeply")
        let braces = "a IN " + String(repeating: "{", count: 200_000)
        assertError(braces, position: limit + 5, "nested too deeply")
        // NOTs in a row cancel in pairs, however many there are.
        let nots = String(repeating: "!", count: 200_000) + "a == 1"
        assertRender(nots, "a == 1")
        let notWords = String(repeating: "NOT ", count: 99_999) + "a == 1"
        assertRender(notWords, "NOT a == 1")
    }

    /// AND/OR groups nest at most 1,000 levels (a group inside a group of the other kind);
    /// groups of one kind inside each other and parentheses around one term do not count.
    func testGroupNestingLimit() {
        let limit = PredicateNode.maximumNesting
        func alternating(_ levels: Int) -> String {
            var format = ""
            for level in stride(from: levels, through: 1, by: -1) { format += "a == \(level) \(level % 2 == 0 ? "AND" : "OR") (" }
            return format + "a == 0" + String(repeating: ")", count: levels)
        }
        XCTAssertNoThrow(try PredicateFormatParser.parse(alternating(limit), arguments: []))
        // One level more needs one '(' more than the parentheses' limit, which refuses it there.
        let beyond = alternating(limit + 1)
        assertError(beyond, position: Self.offset(ofParenthesis: limit + 1, in: beyond), "more than \(limit) levels of parentheses")
        // Without the parentheses around the innermost term (one term is no level), the same
        // groups need one '(' fewer: the groups' limit refuses them, at the outermost operator.
        let tight = beyond.replacingOccurrences(of: "(a == 0)", with: "a == 0")
        assertError(tight, position: "a == \(limit + 1) ".count, "AND/OR groups more than \(limit) levels deep")
        let sameKind = (0..<90).reduce("a == 0") { format, level in "a == \(level) AND (\(format))" }
        XCTAssertNoThrow(try PredicateFormatParser.parse(sameKind, arguments: []))
        // NOT turns an AND into an OR (De Morgan), so NOT (x AND y) inside an OR does not add a level.
        assertRender("a == 1 OR NOT (b == 1 AND c == 1)", "(a == 1 OR NOT (b == 1 AND c == 1))")
        var viaNot = ""
        for level in stride(from: limit, through: 0, by: -1) { viaNot += "a == \(level) OR NOT (" }
        viaNot += "a == 0" + String(repeating: ")", count: limit + 1)
        assertError(viaNot, position: Self.offset(ofParenthesis: limit + 1, in: viaNot), "more than \(limit) levels")
    }

    /// The offset of the `n`th '(' in `format` (1-based).
    private static func offset(ofParenthesis n: Int, in format: String) -> Int {
        var seen = 0
        for (offset, character) in format.enumerated() where character == "(" {
            seen += 1
            if seen == n { return offset }
        }
        return -1
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
