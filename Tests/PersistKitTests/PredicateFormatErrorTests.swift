import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The format parser's arguments, and its errors: each names the problem and its position.
final class PredicateFormatErrorTests: PredicateFormatTestCase {
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
        assertError("a ^ 1 == 2", position: 2, "unknown character '^'")
        assertError("a == - ", position: 7, "expected a key or value after '-'")
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
        assertError("a == (1", position: 7, "expected ')' to close the '(' at position 5")
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
}
