import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The format parser: the examples, precedence and structure, operands.
final class PredicateFormatParserTests: PredicateFormatTestCase {
    // MARK: - The examples

    func testDesignExample() throws {
        let expression = try parse("isComplete == NO AND name BEGINSWITH[cd] %@", "buy")
        XCTAssertEqual(expression, .and([
            .comparison(lhs: key("isComplete", 0), op: .equal, options: [], rhs: value(.bool(false), 14), position: 11),
            .comparison(lhs: key("name", 21), op: .beginsWith, options: [.caseInsensitive, .diacriticInsensitive],
                        rhs: value(.argument(index: 0), 41), position: 26)]))
    }

    func testNil() throws {
        XCTAssertEqual(try parse("due == nil"),
                       .comparison(lhs: key("due", 0), op: .equal, options: [], rhs: value(.null, 7), position: 4))
        assertRender("due = NULL", "due == nil")
        assertRender("due != Nil", "due != nil")
    }

    func testInArgument() throws {
        XCTAssertEqual(try parse("priority IN %@", [1, 2, 3]),
                       .comparison(lhs: key("priority", 0), op: .in, options: [], rhs: value(.argument(index: 0), 12),
                                   position: 9))
    }

    func testNotGroupAnd() throws {
        assertRender("NOT (a == 1 OR b != 2) AND c < 3", "(NOT (a == 1 OR b != 2) AND c < 3)")
        XCTAssertEqual(try parse("NOT (a == 1 OR b != 2) AND c < 3"), .and([
            .not(.or([
                .comparison(lhs: key("a", 5), op: .equal, options: [], rhs: value(.integer(1), 10), position: 7),
                .comparison(lhs: key("b", 15), op: .notEqual, options: [], rhs: value(.integer(2), 20), position: 17)])),
            .comparison(lhs: key("c", 27), op: .less, options: [], rhs: value(.integer(3), 31), position: 29)]))
    }

    func testKeyArgument() throws {
        XCTAssertEqual(try parse("%K == %@", "name", "Ann"),
                       .comparison(lhs: key("name", 0), op: .equal, options: [], rhs: value(.argument(index: 1), 6),
                                   position: 3))
    }

    /// `%K` takes the whole key path from its argument; it cannot be continued with `.key`.
    func testKeyArgumentThenDot() {
        assertError("%K.count > 1", ["tags"], position: 2, "unexpected '.'")
    }

    func testBetween() throws {
        XCTAssertEqual(try parse("age BETWEEN {18, 65}"), .and([
            .comparison(lhs: key("age", 0), op: .greaterOrEqual, options: [], rhs: value(.integer(18), 12), position: 4),
            .comparison(lhs: key("age", 0), op: .lessOrEqual, options: [], rhs: value(.integer(65), 12), position: 4)]))
        assertRender("age between {%d, %@} OR x == 1", [1, 2], "((age >= 1 AND age <= $1) OR x == 1)")
        assertRender("NOT age BETWEEN {1, 2}", "NOT (age >= 1 AND age <= 2)")
        assertRender("name BETWEEN[c] {'a', 'm'}", "(name >=[c] 'a' AND name <=[c] 'm')")
    }

    // MARK: - Precedence and structure

    func testPrecedence() {
        assertRender("a == 1 OR b == 2 AND c == 3", "(a == 1 OR (b == 2 AND c == 3))")
        assertRender("a == 1 AND b == 2 OR c == 3", "((a == 1 AND b == 2) OR c == 3)")
        assertRender("a == 1 OR b == 2 OR c == 3", "(a == 1 OR b == 2 OR c == 3)")
        assertRender("a == 1 AND b == 2 AND c == 3", "(a == 1 AND b == 2 AND c == 3)")
        assertRender("(a == 1 AND b == 2) AND c == 3", "((a == 1 AND b == 2) AND c == 3)")
        assertRender("NOT a == 1 AND b == 2", "(NOT a == 1 AND b == 2)")
        assertRender("NOT a == 1 OR NOT b == 2", "(NOT a == 1 OR NOT b == 2)")
        assertRender("!!a == 1", "a == 1")
        assertRender("NOT !NOT a == 1", "NOT a == 1")
        assertRender("a == 1 && b == 2 || !(c == 3)", "((a == 1 AND b == 2) OR NOT c == 3)")
        assertRender("a == 1 and b == 2 Or c == 3", "((a == 1 AND b == 2) OR c == 3)")
        assertRender("a == 1 AND (b == 2 OR c == 3)", "(a == 1 AND (b == 2 OR c == 3))")
        assertRender("((a == 1))", "a == 1")
        assertRender("TRUEPREDICATE", "TRUEPREDICATE")
        assertRender("falsepredicate OR TruePredicate", "(FALSEPREDICATE OR TRUEPREDICATE)")
        assertRender("NOT TRUEPREDICATE AND (FALSEPREDICATE)", "(NOT TRUEPREDICATE AND FALSEPREDICATE)")
    }

    func testOperators() {
        let cases: [(String, String)] = [
            ("==", "=="), ("=", "=="), ("!=", "!="), ("<>", "!="), ("<", "<"), ("<=", "<="), ("=<", "<="),
            (">", ">"), (">=", ">="), ("=>", ">="), ("CONTAINS", "CONTAINS"), ("contains", "CONTAINS"),
            ("BEGINSWITH", "BEGINSWITH"), ("BeginsWith", "BEGINSWITH"), ("ENDSWITH", "ENDSWITH"),
            ("LIKE", "LIKE"), ("like", "LIKE"), ("IN", "IN"), ("in", "IN"),
        ]
        for (written, expected) in cases {
            assertRender("a \(written) 'x'", "a \(expected) 'x'")
        }
        assertRender("a==1", "a == 1")
        assertRender("a<=-1", "a <= -1")
        assertRender("a=>-1", "a >= -1")
        assertRender("a<>b", "a != b")
        assertRender("a!=nil", "a != nil")
    }

    func testOptions() {
        assertRender("a ==[c] 'x'", "a ==[c] 'x'")
        assertRender("a LIKE[d] 'x'", "a LIKE[d] 'x'")
        assertRender("a CONTAINS[cd] 'x'", "a CONTAINS[cd] 'x'")
        assertRender("a CONTAINS[dc] 'x'", "a CONTAINS[cd] 'x'")
        assertRender("a CONTAINS[CD] 'x'", "a CONTAINS[cd] 'x'")
        assertRender("a CONTAINS [ c ] 'x'", "a CONTAINS[c] 'x'")
        assertRender("name == [c] 'x'", "name ==[c] 'x'")
        assertRender("a ENDSWITH[cc] 'x'", "a ENDSWITH[c] 'x'")
    }

    func testOperandOrderIsKept() throws {
        XCTAssertEqual(try parse("5 < count"),
                       .comparison(lhs: value(.integer(5), 0), op: .less, options: [], rhs: key("count", 4), position: 2))
        assertRender("%@ IN tags", ["x"], "$0 IN tags")
        assertRender("a == b", "a == b")
        assertRender("1 == 2", "1 == 2")
        assertRender("'x' BEGINSWITH name", "'x' BEGINSWITH name")
    }

    // MARK: - Operands

    func testKeyPaths() {
        assertRender("project.name == 'x'", "project.name == 'x'")
        assertRender("a.b.c_d2 == 1", "a.b.c_d2 == 1")
        assertRender("#order == 1", "order == 1")
        assertRender("#IN == 1 AND #and == 2", "(IN == 1 AND and == 2)")
        assertRender("project.#order > 1", "project.order > 1")
        assertRender("_private == 1", "_private == 1")
        assertRender("größe == 1", "größe == 1")
        assertRender("name IN {'a'}", "name IN {'a'}")
        assertRender("index == 1", "index == 1")
        assertRender("notes == 1 AND orders == 2 AND inbox == 3", "(notes == 1 AND orders == 2 AND inbox == 3)")
        assertRender("nothing == nilly", "nothing == nilly")
    }

    func testStrings() {
        assertRender(#"a == "hello world""#, "a == 'hello world'")
        assertRender("a == 'single'", "a == 'single'")
        assertRender(#"a == 'it\'s'"#, "a == 'it's'")
        assertRender(#"a == "say \"hi\"""#, "a == 'say \"hi\"'")
        assertRender(#"a == "tab\there""#, "a == 'tab\there'")
        assertRender(#"a == "line\nbreak\r""#, "a == 'line\nbreak\r'")
        assertRender(#"a == "back\\slash""#, "a == 'back\\slash'")
        assertRender(#"a == "\u00e9\u0041""#, "a == 'éA'")
        assertRender(#"a == "\uD83D\uDE00""#, "a == '😀'")
        assertRender(#"a == "don't""#, "a == 'don't'")
        assertRender(#"a == '"quoted"'"#, "a == '\"quoted\"'")
        assertRender("a == ''", "a == ''")
        assertRender("a == 'naïve 😀'", "a == 'naïve 😀'")
    }

    func testNumbers() {
        assertRender("a == 0", "a == 0")
        assertRender("a == 42", "a == 42")
        assertRender("a == -7", "a == -7")
        assertRender("a == 007", "a == 7")
        assertRender("a == 0x1F", "a == 31")
        assertRender("a == 0XfF", "a == 255")
        assertRender("a == -0x10", "a == -16")
        assertRender("a == 0o17", "a == 15")
        assertRender("a == 0b101", "a == 5")
        assertRender("a == 9223372036854775807", "a == 9223372036854775807")
        assertRender("a == -9223372036854775808", "a == -9223372036854775808")
        assertRender("a == 0x7FFFFFFFFFFFFFFF", "a == 9223372036854775807")
        assertRender("a == -0x8000000000000000", "a == -9223372036854775808")
        assertRender("a == 1.5", "a == d1.5")
        assertRender("a == -2.25", "a == d-2.25")
        assertRender("a == 1.5e3", "a == d1500.0")
        assertRender("a == 1e3", "a == d1000.0")
        assertRender("a == 2E-2", "a == d0.02")
        assertRender("a == 1.5e+2", "a == d150.0")
        assertRender("a == .5", "a == d0.5")
        assertRender("a == -.5", "a == d-0.5")
        assertRender("a == 1e-400", "a == d0.0")
        assertRender("a == 99999999999999999999.0", "a == d1e+20")
    }

    func testKeywordValues() {
        assertRender("a == YES", "a == YES")
        assertRender("a == yes", "a == YES")
        assertRender("a == TRUE", "a == YES")
        assertRender("a == true", "a == YES")
        assertRender("a == NO", "a == NO")
        assertRender("a == no", "a == NO")
        assertRender("a == FALSE", "a == NO")
        assertRender("a == False", "a == NO")
        assertRender("a == nil", "a == nil")
        assertRender("a == NULL", "a == nil")
        assertRender("nil == a", "nil == a")
    }

    func testAggregates() {
        assertRender("a IN {1, 'a', %@}", ["x"], "a IN {1, 'a', $0}")
        assertRender("a IN {}", "a IN {}")
        assertRender("a IN {nil, YES, no, 1.5, -2}", "a IN {nil, YES, NO, d1.5, -2}")
        assertRender("a IN {{1, 2}, {}}", "a IN {{1, 2}, {}}")
        assertRender("a IN {%d, %f}", [3, 2.5], "a IN {3, d2.5}")
        assertRender("a IN{1}", "a IN {1}")
    }
}
