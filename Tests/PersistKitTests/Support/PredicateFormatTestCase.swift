import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// What the predicate format tests share: parsing, a position-free rendering of the parsed
/// expression, and assertions on renderings and errors. Each topic's tests subclass it.
class PredicateFormatTestCase: XCTestCase {
    // MARK: - Helpers

    func parse(_ format: String, _ arguments: Any..., file: StaticString = #filePath, line: UInt = #line)
        throws -> PredicateFormatExpression {
        try PredicateFormatParser.parse(format, arguments: arguments)
    }

    /// A position-free rendering: comparisons bare, AND/OR fully parenthesized, NOT prefixed.
    func render(_ expression: PredicateFormatExpression) -> String {
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

    func render(_ operand: PredicateFormatOperand) -> String {
        switch operand {
        case .key(let key, _): return key
        case .value(let value, _): return render(value)
        case .quantified(let quantifier, let inner, _): return quantifier.rawValue + " " + render(inner)
        case .variableKey(let variable, let path, _): return "$\(variable).\(path)"
        case .subqueryCount(let collection, let variable, let predicate, _):
            return "SUBQUERY(\(render(collection)), $\(variable), \(render(predicate))).@count"
        case .arithmetic(let op, let lhs, let rhs, _): return "(\(render(lhs)) \(op.symbol) \(render(rhs)))"
        case .negated(let inner, _): return "-\(render(inner))"
        }
    }

    func render(_ value: PredicateFormatValue) -> String {
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

    func assertRender(_ format: String, _ expected: String,
                              file: StaticString = #filePath, line: UInt = #line) {
        assertRender(format, [], expected, file: file, line: line)
    }

    func assertRender(_ format: String, _ arguments: [Any], _ expected: String,
                              file: StaticString = #filePath, line: UInt = #line) {
        do {
            let expression = try PredicateFormatParser.parse(format, arguments: arguments)
            XCTAssertEqual(render(expression), expected, "format: \(format)", file: file, line: line)
        } catch {
            XCTFail("\(format) failed to parse: \(error)", file: file, line: line)
        }
    }

    /// Asserts that parsing throws `invalidPredicate` at `position`, with `fragment` in the message.
    func assertError(_ format: String, _ arguments: [Any] = [], position: Int, _ fragment: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        do {
            let expression = try PredicateFormatParser.parse(format, arguments: arguments)
            XCTFail("\(format) parsed as \(render(expression)); expected an error", file: file, line: line)
        } catch let error as PersistError {
            XCTAssertEqual(error.code, .invalidPredicate, file: file, line: line)
            XCTAssertEqual(error.position, position, "PersistError.position", file: file, line: line)
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

    func key(_ name: String, _ position: Int) -> PredicateFormatOperand { .key(name, position: position) }
    func value(_ value: PredicateFormatValue, _ position: Int) -> PredicateFormatOperand {
        .value(value, position: position)
    }
}
