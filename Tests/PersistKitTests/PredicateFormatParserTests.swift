import PersistKitTestSupport
import XCTest
@testable import PersistKit

final class PredicateFormatParserTests: XCTestCase {

    // MARK: - Helpers

    private func parse(_ format: String, _ arguments: Any..., file: StaticString = #filePath, line: UInt = #line)
        throws -> PredicateFormatExpression {
        try PredicateFormatParser.parse(format, arguments: arguments)
    }

    /// A position-free rendering: comparisons bare, AND/OR fully parenthesized, NOT prefixed.
    private func render(_ expression: PredicateFormatExpression) -> String {
        switch expression {
        case .truePredicate: return "TRUEPREDICATE"
        case .falsePredicate: return "FALSEPREDICATE"
        case .and(let terms): return "(" + terms.map(render).joined(separator: " AND ") + ")"
        case .or(let terms): return "(" + terms.map(render).joined(separator: " OR ") + ")"
        case .not(let inner): return "NOT \(render(inner))"
        case .comparison(let lhs, let op, let options, let rhs, _):
            var text = op.rawValue
            if !options.isEmpty {
                text += "[" + (options.contains(.caseInsensitive) ? "c" : "") + (options.contains(.diacriticInsensitive) ? "d" : "") + "]"
            }
            return "\(render(lhs)) \(text) \(render(rhs))"
        }
    }

    private func render(_ operand: PredicateFormatOperand) -> String {
        switch operand {
        case .key(let key, _): return key
        case .value(let value, _): return render(value)
        case .quantified(let quantifier, let inner, _): return quantifier.rawValue + " " + render(inner)
        case .variableKey(let variable, let path, _): return "$\(variable).\(path)"
        case .subqueryCount(let collection, let variable, let predicate, _):
            return "SUBQUERY(\(render(collection)), $\(variable), \(render(predicate))).@count"
        }
    }

    private func render(_ value: PredicateFormatValue) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let bool): return bool ? "YES" : "NO"
        case .integer(let integer): return String(integer)
        case .double(let double): return "d\(double)"
        case .string(let string): return "'\(string)'"
        case .argument(let index): return "$\(index)"
        case .list(let values): return "{" + values.map(render).joined(separator: ", ") + "}"
        case .variable(let name): return "$\(name)"
        }
    }

    private func assertRender(_ format: String, _ expected: String,
                              file: StaticString = #filePath, line: UInt = #line) {
        assertRender(format, [], expected, file: file, line: line)
    }

    private func assertRender(_ format: String, _ arguments: [Any], _ expected: String,
                              file: StaticString = #filePath, line: UInt = #line) {
        do {
            let expression = try PredicateFormatParser.parse(format, arguments: arguments)
            XCTAssertEqual(render(expression), expected, "format: \(format)", file: file, line: line)
        } catch {
            XCTFail("\(format) failed to parse: \(error)", file: file, line: line)
        }
    }

    /// Asserts that parsing throws `invalidPredicate` at `position`, with `fragment` in the message.
    private func assertError(_ format: String, _ arguments: [Any] = [], position: Int, _ fragment: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        do {
            let expression = try PredicateFormatParser.parse(format, arguments: arguments)
            XCTFail("\(format) parsed as \(render(expression)); expected an error", file: file, line: line)
        } catch let error as PersistError {
            XCTAssertEqual(error.code, .invalidPredicate, file: file, line: line)
            XCTAssertTrue(error.message.contains("at position \(position):"),
                          "expected position \(position) in: \(error.message)", file: file, line: line)
            XCTAssertTrue(error.message.contains(fragment),
                          "expected \"\(fragment)\" in: \(error.message)", file: file, line: line)
            if format.count <= 200 {
                XCTAssertTrue(error.message.contains("\"\(format)\""),
                              "expected the quoted format in: \(error.message)", file: file, line: line)
            } else {
                XCTAssertLessThan(error.message.count, 400, "a long format is quoted only in part", file: file, line: line)
            }
        } catch {
            XCTFail("\(format) threw \(error), not a PersistError", file: file, line: line)
        }
    }

    private func key(_ name: String, _ position: Int) -> PredicateFormatOperand { .key(name, position: position) }
    private func value(_ value: PredicateFormatValue, _ position: Int) -> PredicateFormatOperand {
        .value(value, position: position)
    }

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

    // MARK: - Arguments

    func testArguments() throws {
        assertRender("a == %d", [5], "a == 5")
        assertRender("a == %i", [Int8(-5)], "a == -5")
        assertRender("a == %ld", [Int32(7)], "a == 7")
        assertRender("a == %lld", [Int64.min], "a == -9223372036854775808")
        assertRender("a == %u", [UInt8(200)], "a == 200")
        assertRender("a == %lu", [UInt64(Int64.max)], "a == 9223372036854775807")
        assertRender("a == %hd AND b == %zd AND c == %qd", [Int16(1), 2, 3], "(a == 1 AND b == 2 AND c == 3)")
        assertRender("a == %f", [2.5], "a == d2.5")
        assertRender("a == %lf", [Float(0.5)], "a == d0.5")
        assertRender("%K == %@ AND %K == %d", ["a", "x", "b", 3], "(a == $1 AND b == 3)")
        assertRender("%K == 1", [Substring("sub")], "sub == 1")
        assertRender("%K == 1", ["project.name"], "project.name == 1")
        assertRender("a == %@", [Optional<Int>.none as Any], "a == $0")
        assertRender("a == '%@'", [], "a == '%@'")
    }

    func testArgumentErrors() {
        assertError("a == %@", [], position: 5, "has no argument")
        assertError("a == %@ AND b == %@", ["x"], position: 17, "'%@' has no argument: 1 argument was given")
        assertError("a == 1", ["x"], position: 6, "1 arguments were given but the format uses only 0")
        assertError("a == %@", ["x", "y"], position: 7, "uses only 1")
        assertError("%K == 1", [5], position: 0, "%K needs a String")
        assertError("%K == 1", [""], position: 0, "empty string")
        assertError("a == %d", ["5"], position: 5, "%d needs an integer, but arguments[0] is String (\"5\")")
        assertError("a == %d", [2.5], position: 5, "%d needs an integer")
        assertError("a == %d", [true], position: 5, "%d needs an integer")
        assertError("a == %lu", [UInt64.max], position: 5, "does not fit in a 64-bit integer")
        assertError("a == %f", [5], position: 5, "%f needs a floating-point number")
        assertError("a == %F", [2.5], position: 5, "unknown format specifier '%F'")
        assertError("a == %s", ["x"], position: 5, "unknown format specifier '%s'")
        assertError("a == %hf", [2.5], position: 5, "unknown format specifier '%hf'")
        assertError("a == %lllld", [1], position: 5, "unknown format specifier")
        assertError("a == %", [], position: 5, "incomplete format specifier '%'")
        assertError("a == %l", [], position: 5, "incomplete format specifier '%l'")
        assertError("a == %%", [], position: 5, "unknown format specifier '%%'")
    }

    // MARK: - Errors

    func testEmpty() {
        assertError("", position: 0, "empty")
        assertError("   ", position: 3, "empty")
        assertError("\n\t", position: 2, "empty")
    }

    func testUnterminatedString() {
        assertError("name == \"abc", position: 8, "unterminated string literal")
        assertError("name == 'abc\"", position: 8, "unterminated string literal")
        assertError("name == 'abc\\'", position: 8, "unterminated string literal")
        assertError("name == 'abc\\", position: 8, "unterminated string literal")
    }

    func testBadEscapes() {
        assertError(#"a == "\q""#, position: 6, #"unknown escape sequence '\q'"#)
        assertError(#"a == "x\u12""#, position: 7, "expected four hex digits")
        assertError(#"a == "\u12"#, position: 6, "expected four hex digits")
        assertError(#"a == "\uD800""#, position: 6, "unpaired surrogate")
        assertError(#"a == "\uD800\u0041""#, position: 6, "unpaired surrogate")
        assertError(#"a == "\uDC00""#, position: 6, "lone surrogate")
        assertError(#"a == "\x4""#, position: 6, #"expected two hex digits in escape '\x4'"#)
        assertError(#"a == "\xZZ""#, position: 6, "expected two hex digits")
        assertError(#"a == "\400""#, position: 6, #"octal escape '\400' is out of range (at most \377)"#)
        assertError(#"a == "\8""#, position: 6, #"unknown escape sequence '\8'"#)
    }

    /// `\xhh`, octal `\o` to `\ooo` (NSPredicate's `\0nn`), alongside `\uhhhh`.
    func testHexAndOctalEscapes() {
        assertRender(#"a == "\x41\x62\xe9""#, "a == 'Abé'")
        assertRender(#"a == "\x7e1""#, "a == '~1'")
        assertRender(#"a == "\060\101""#, "a == '0A'")
        assertRender(#"a == "\0101""#, "a == '\u{8}1'")
        assertRender(#"a == "\101\12x\7""#, "a == 'A\nx\u{7}'")
        assertRender(#"a == "\0""#, "a == '\u{0}'")
        assertRender(#"a == "\0012""#, "a == '\u{1}2'")
        assertRender(#"a == "\377""#, "a == 'ÿ'")
    }

    func testMatchesBetweenArgumentsAndVariables() throws {
        assertRender("name MATCHES[cd] '^a.*'", "name MATCHES[cd] '^a.*'")
        assertRender("age BETWEEN %@", [[1, 10]], "age BETWEEN $0")
        assertRender("age BETWEEN[c] $RANGE", "age BETWEEN[c] $RANGE")
        assertRender("name == $NAME AND $LIMIT > count", "(name == $NAME AND $LIMIT > count)")
        assertRender("name IN $NAMES", "name IN $NAMES")
        XCTAssertEqual(try parse("a == $the_Name1"),
                       .comparison(lhs: key("a", 0), op: .equal, options: [], rhs: value(.variable("the_Name1"), 5), position: 2))
        assertError("a IN {1, $X}", position: 9, "only constants, found the variable '$X'")
        assertError("a BETWEEN $", position: 10, "expected a variable name after '$'")
        assertError("MATCHES == 1", position: 0, "write '#MATCHES' to use it as a key")
    }

    func testUnknownCharacters() {
        assertError("name == @x", position: 8, "unknown character '@'")
        assertError("a == 1 & b == 2", position: 7, "did you mean '&&'")
        assertError("a == 1 | b == 2", position: 7, "did you mean '||'")
        assertError("a == $", position: 5, "expected a variable name after '$'")
        assertError("a == $1", position: 5, "expected a variable name after '$'")
        assertError("a == “x”", position: 5, "unknown character '“'")
        assertError("a == \u{7}", position: 5, "unknown character U+0007")
        assertError("a + 1 == 2", position: 2, "unknown character '+'")
        assertError("a == - 1", position: 5, "unexpected '-'")
        assertError("a ==   .", position: 7, "unexpected '.'")
        assertError("a == 1;", position: 6, "unknown character ';'")
    }

    func testPositionsCountCharacters() throws {
        // "e\u{301}" is one character of two scalars; the emoji flag is one character of two scalars.
        assertError("e\u{301}e == @", position: 6, "unknown character '@'")
        assertError("a == '🇫🇷' AND @", position: 13, "unknown character '@'")
        XCTAssertEqual(try parse("'🇫🇷' == b"),
                       .comparison(lhs: value(.string("🇫🇷"), 0), op: .equal, options: [], rhs: key("b", 7), position: 4))
    }

    func testUnexpectedEndAndMissingOperands() {
        assertError("name ==", position: 7, "expected a key or value after '==', found end of format")
        assertError("name", position: 4, "expected a comparison operator after 'name', found end of format")
        assertError("name 'x'", position: 5, "expected a comparison operator after 'name', found ''x''")
        assertError("== 5", position: 0, "expected a key or value, found '=='")
        assertError("a == 1 AND", position: 10, "expected a key or value, found end of format")
        assertError("a == 1 OR OR b == 1", position: 10, "reserved word 'OR'")
        assertError("NOT", position: 3, "found end of format")
        assertError("a == == 1", position: 5, "expected a key or value after '==', found '=='")
        assertError("a CONTAINS", position: 10, "after 'CONTAINS', found end of format")
        assertError("AND == 1", position: 0, "write '#AND' to use it as a key")
        assertError("a == TRUEPREDICATE", position: 5, "reserved word 'TRUEPREDICATE'")
        assertError("ANY == 1", position: 4, "expected a key path after 'ANY', found '=='")
        assertError("name SUBQUERY 'x'", position: 5, "expected a comparison operator after 'name', found 'SUBQUERY'")
        assertError("SELF == %@", ["x"], position: 0, "'SELF' is not supported")
        assertError("()", position: 1, "expected a predicate inside the parentheses")
    }

    func testUnbalancedParentheses() {
        assertError("(a == 1", position: 7, "unbalanced parentheses: expected ')' to close the '(' at position 0")
        assertError("((a == 1) OR b == 2", position: 19, "to close the '(' at position 0")
        assertError("a == 1)", position: 6, "')' has no matching '('")
        assertError("(a == 1))", position: 8, "')' has no matching '('")
        assertError("(a == 1 b == 2)", position: 8, "expected ')' to close the '(' at position 0, found 'b'")
        assertError("a == (1)", position: 5, "expected a key or value after '==', found '('")
    }

    func testTrailingGarbage() {
        assertError("a == 1 b", position: 7, "expected AND, OR or the end of the format, found 'b'")
        assertError("a == 1 2", position: 7, "found '2'")
        assertError("TRUEPREDICATE FALSEPREDICATE", position: 14, "found 'FALSEPREDICATE'")
        assertError("a == 1 }", position: 7, "found '}'")
    }

    func testNumberErrors() {
        assertError("a == 9223372036854775808", position: 5, "does not fit in a 64-bit integer")
        assertError("a == -9223372036854775809", position: 5, "does not fit in a 64-bit integer")
        assertError("a == 99999999999999999999999999", position: 5, "does not fit in a 64-bit integer")
        assertError("a == 0x8000000000000000", position: 5, "does not fit")
        assertError("a == 0x10000000000000000", position: 5, "does not fit")
        assertError("a == 1e999", position: 5, "out of range")
        assertError("a == 0x", position: 7, "expected digits after '0x'")
        assertError("a == 0xG", position: 7, "expected digits after '0x'")
        assertError("a == 0b12", position: 8, "unexpected '2'")
        assertError("a == 5abc", position: 6, "unexpected 'a'")
        assertError("a == 1.", position: 7, "expected a digit after the decimal point")
        assertError("a == 1.x", position: 7, "expected a digit after the decimal point")
        assertError("a == 1e", position: 7, "expected a digit in the exponent")
        assertError("a == 1.5.3", position: 8, "unexpected '.'")
    }

    func testKeyErrors() {
        assertError("# == 1", position: 1, "expected a key after '#'")
        assertError("a. == 1", position: 2, "expected a key after '.'")
        assertError("a..b == 1", position: 2, "expected a key after '.'")
        assertError("a.1 == 1", position: 2, "expected a key after '.'")
        assertError("#1 == 1", position: 1, "expected a key after '#'")
    }

    func testOptionErrors() {
        assertError("name BEGINSWITH[cd", position: 18, "expected ']' after comparison options")
        assertError("name ==[x] 'a'", position: 8, "unknown comparison option 'x'")
        assertError("name ==[cx] 'a'", position: 9, "unknown comparison option 'x'")
        assertError("name ==[n] 'a'", position: 8, "unknown comparison option 'n'")
        assertError("name ==[] 'a'", position: 8, "expected comparison options 'c' and/or 'd' after '['")
        assertError("name ==[1] 'a'", position: 8, "expected comparison options")
        assertError("name ==[c d] 'a'", position: 10, "expected ']' after comparison options, found 'd'")
        assertError("name[c] == 'a'", position: 4, "expected a comparison operator after 'name', found '['")
    }

    func testBetweenErrors() {
        assertError("a BETWEEN 5", position: 10, "BETWEEN needs two bounds written as {low, high}")
        assertError("a BETWEEN 'x'", position: 10, "or an array argument %@")
        assertError("a BETWEEN {1}", position: 10, "exactly two bounds")
        assertError("a BETWEEN {1, 2, 3}", position: 10, "exactly two bounds")
        assertError("a BETWEEN {}", position: 10, "exactly two bounds")
    }

    func testAggregateErrors() {
        assertError("a IN {1,}", position: 8, "expected a value in the aggregate, found '}'")
        assertError("a IN {1, b}", position: 9, "an aggregate may hold only constants, found the key 'b'")
        assertError("a IN {1 2}", position: 8, "expected ',' or '}' in the aggregate opened at position 5, found '2'")
        assertError("a IN {1", position: 7, "expected ',' or '}' to close the '{' at position 5")
        assertError("a IN {,}", position: 6, "expected a value in the aggregate, found ','")
        assertError("a IN {%K}", ["k"], position: 6, "only constants, found the key '%K'")
        assertError("a IN }", position: 5, "expected a key or value after 'IN', found '}'")
    }

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

    // MARK: - Generated well-formed predicates

    private static func seed(_ name: String = #function) -> UInt64 {
        testSeed("PredicateFormatParserTests.\(name)")
    }

    /// Builds a random well-formed format and its expected rendering.
    private func randomPredicate(_ rng: inout SeededGenerator, depth: Int, arguments: inout [Any]) -> (String, String) {
        let choice = depth <= 0 ? Int.random(in: 0..<6, using: &rng) : Int.random(in: 0..<10, using: &rng)
        switch choice {
        case 6, 7:
            let (lf, lr) = randomPredicate(&rng, depth: depth - 1, arguments: &arguments)
            let (rf, rr) = randomPredicate(&rng, depth: depth - 1, arguments: &arguments)
            let isAnd = Bool.random(using: &rng)
            let word = isAnd ? ["AND", "and", "&&"].randomElement(using: &rng) ?? "AND"
                             : ["OR", "or", "||"].randomElement(using: &rng) ?? "OR"
            return ("(\(lf) \(word) \(rf))", "(\(lr) \(isAnd ? "AND" : "OR") \(rr))")
        case 8:
            let (f, r) = randomPredicate(&rng, depth: depth - 1, arguments: &arguments)
            let word = ["NOT ", "not ", "!"].randomElement(using: &rng) ?? "NOT "
            return ("\(word)(\(f))", "NOT \(r)")
        case 9:
            return Bool.random(using: &rng) ? ("TRUEPREDICATE", "TRUEPREDICATE") : ("falsepredicate", "FALSEPREDICATE")
        default:
            let (lf, lr) = randomOperand(&rng, arguments: &arguments)
            let (rf, rr) = randomOperand(&rng, arguments: &arguments)
            let ops: [(String, String)] = [("==", "=="), ("=", "=="), ("!=", "!="), ("<>", "!="), ("<", "<"),
                                           ("<=", "<="), ("=<", "<="), (">", ">"), (">=", ">="), ("=>", ">="),
                                           ("CONTAINS", "CONTAINS"), ("beginswith", "BEGINSWITH"),
                                           ("EndsWith", "ENDSWITH"), ("LIKE", "LIKE"), ("IN", "IN")]
            let (of, or) = ops.randomElement(using: &rng) ?? ("==", "==")
            let options: [(String, String)] = [("", ""), ("[c]", "[c]"), ("[d]", "[d]"), ("[cd]", "[cd]"), ("[DC]", "[cd]")]
            let (pf, pr) = options.randomElement(using: &rng) ?? ("", "")
            return ("\(lf) \(of)\(pf) \(rf)", "\(lr) \(or)\(pr) \(rr)")
        }
    }

    private func randomOperand(_ rng: inout SeededGenerator, arguments: inout [Any]) -> (String, String) {
        switch Int.random(in: 0..<9, using: &rng) {
        case 0:
            let name = ["name", "due", "project.name", "a_b", "x1.y2.z3", "größe"].randomElement(using: &rng) ?? "name"
            return (name, name)
        case 1:
            let name = ["order", "IN", "and"].randomElement(using: &rng) ?? "order"
            return ("#\(name)", name)
        case 2:
            let n = Int64.random(in: Int64.min...Int64.max, using: &rng)
            return (String(n), String(n))
        case 3:
            let index = arguments.count
            arguments.append("value")
            return ("%@", "$\(index)")
        case 4:
            let name = ["title", "a.b"].randomElement(using: &rng) ?? "title"
            arguments.append(name)
            return ("%K", name)
        case 5:
            let n = Int.random(in: -1000...1000, using: &rng)
            arguments.append(n)
            return ("%ld", String(n))
        case 6:
            let word = ["nil", "NULL", "YES", "no", "TRUE", "false"].randomElement(using: &rng) ?? "nil"
            let rendered = ["NIL": "nil", "NULL": "nil", "YES": "YES", "NO": "NO", "TRUE": "YES", "FALSE": "NO"][word.uppercased()] ?? ""
            return (word, rendered)
        case 7:
            let text = ["", "abc", "it's", "naïve", "😀"].randomElement(using: &rng) ?? ""
            let escaped = text.replacingOccurrences(of: "'", with: "\\'")
            return ("'\(escaped)'", "'\(text)'")
        default:
            let count = Int.random(in: 0...3, using: &rng)
            let items = (0..<count).map { _ in Int.random(in: 0...99, using: &rng) }
            return ("{" + items.map(String.init).joined(separator: ", ") + "}",
                    "{" + items.map(String.init).joined(separator: ", ") + "}")
        }
    }

    func testGeneratedPredicatesRoundTrip() {
        let seed = Self.seed()
        var rng = SeededGenerator(seed: seed)
        for iteration in 0..<3000 {
            var arguments: [Any] = []
            let (format, expected) = randomPredicate(&rng, depth: Int.random(in: 0...4, using: &rng), arguments: &arguments)
            do {
                let expression = try PredicateFormatParser.parse(format, arguments: arguments)
                let rendered = render(expression)
                if rendered != expected {
                    XCTFail("seed \(seed), iteration \(iteration): \(format)\n  parsed:   \(rendered)\n  expected: \(expected)")
                    return
                }
            } catch {
                XCTFail("seed \(seed), iteration \(iteration): \(format) failed: \(error)")
                return
            }
        }
    }

    // MARK: - Fuzz

    private static let fragments: [String] = [
        "a", "name", "project.name", "#order", "#", ".", "..", "x.", " ", "  ", "\t", "\n",
        "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "!", "&&", "||", "&", "|",
        "AND", "OR", "NOT", "and", "or", "not", "IN", "in", "LIKE", "CONTAINS", "BEGINSWITH", "ENDSWITH",
        "BETWEEN", "TRUEPREDICATE", "FALSEPREDICATE", "ANY", "SELF", "MATCHES",
        "[", "]", "[c]", "[d]", "[cd]", "[dc]", "[x]", "[", "(", ")", "(", ")", "{", "}", ",",
        "%@", "%K", "%d", "%ld", "%lld", "%u", "%f", "%lf", "%", "%%", "%s", "%l",
        "nil", "NULL", "YES", "NO", "TRUE", "FALSE",
        "0", "1", "-1", "42", "-", "0x", "0x1F", "0xFFFFFFFFFFFFFFFFFF", "0b101", "0o9", "1.5", "1.", ".5", "1e", "1e5",
        "1e999", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999999999999",
        "\"", "'", "\"abc\"", "'abc'", "\\", "\\n", "\\u", "\\u00e9", "\\uD800", "\\uDC00", "\\uD83D\\uDE00", "\\q",
        "é", "e\u{301}", "😀", "🇫🇷", "\u{0}", "\u{7}", "\u{FEFF}", "\u{200B}", "$", "@", ";", "+", "“",
    ]

    private static var fuzzArguments: [Any] {[
        "name", "", 1, -1, Int64.max, UInt64.max, 2.5, Float(1.5), true, [1, 2], Optional<Int>.none as Any,
        Substring("sub"), Int8(3), UInt8(4),
    ]}

    /// A random string of grammar fragments and random scalars.
    private func randomFragments(_ rng: inout SeededGenerator) -> String {
        var format = ""
        for _ in 0..<Int.random(in: 0...14, using: &rng) {
            if Int.random(in: 0..<5, using: &rng) == 0 {
                format.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: 0...0x2FFFF, using: &rng)) ?? "?")
            } else {
                format += Self.fragments.randomElement(using: &rng) ?? ""
                if Bool.random(using: &rng) { format += " " }
            }
        }
        return format
    }

    /// Deletes, inserts, replaces or truncates at random scalar positions.
    private func mutate(_ format: String, _ rng: inout SeededGenerator) -> String {
        var scalars = Array(format.unicodeScalars)
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let at = Int.random(in: 0...scalars.count, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0 where at < scalars.count:
                scalars.removeSubrange(at..<min(scalars.count, at + Int.random(in: 1...4, using: &rng)))
            case 1:
                scalars.insert(contentsOf: (Self.fragments.randomElement(using: &rng) ?? "").unicodeScalars, at: at)
            case 2 where at < scalars.count:
                scalars[at] = Unicode.Scalar(UInt32.random(in: 0x20...0x7E, using: &rng)) ?? "?"
            default:
                scalars.removeSubrange(at..<scalars.count)
            }
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    func testFuzzNeverCrashes() {
        let seed = Self.seed() ^ 0xF0F0
        var rng = SeededGenerator(seed: seed)
        var parsed = 0
        var rejected = 0
        for iteration in 0..<20_000 {
            var format: String
            var arguments: [Any] = []
            switch iteration % 3 {
            case 0:
                format = randomFragments(&rng)
            case 1:
                (format, _) = randomPredicate(&rng, depth: Int.random(in: 0...3, using: &rng), arguments: &arguments)
                format = mutate(format, &rng)
            default:
                (format, _) = randomPredicate(&rng, depth: Int.random(in: 0...3, using: &rng), arguments: &arguments)
                if Bool.random(using: &rng) { format = mutate(format, &rng) }
            }
            if iteration % 3 == 0 || Int.random(in: 0..<4, using: &rng) == 0 {
                arguments = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
                    Self.fuzzArguments.randomElement(using: &rng) ?? 0
                }
            }
        do {
                _ = try PredicateFormatParser.parse(format, arguments: arguments)
                parsed += 1
            } catch let error as PersistError {
                guard error.code == .invalidPredicate, error.message.contains("at position ") else {
                    XCTFail("seed \(seed), iteration \(iteration): \(format.debugDescription) threw \(error)")
                    return
                }
                rejected += 1
            } catch {
                XCTFail("seed \(seed), iteration \(iteration): \(format.debugDescription) threw a non-PersistError \(error)")
                return
            }
        }
        print("PredicateFormatParser fuzz: \(parsed) parsed, \(rejected) rejected")
        XCTAssertEqual(parsed + rejected, 20_000)
        XCTAssertGreaterThan(parsed, 0, "seed \(seed): the fuzz inputs never parsed; the generator is too hostile")
    }
}
