import PersistKitTestSupport
import Foundation
import XCTest
@testable import PersistKit

/// Core Data format syntax beyond comparisons: `MATCHES`, `BETWEEN %@`, `$VARIABLE`s and string
/// escapes, fetched from SQL (saved objects) and from memory (pending objects) alike.
final class PredicateSyntaxTests: XCTestCase {
    private static let names = ["Buy milk", "buy bread", "Call mom", "Éclair recipe", "eclair", "2024-05-01 taxes",
                                "naïve", "NAIVE", "line\nbreak", "", "ab", "abc"]

    /// The names a predicate selects, from a saved store and from unsaved objects (which must agree).
    private func names(_ predicate: FetchPredicate<TestTask>, file: StaticString = #filePath,
                       line: UInt = #line) throws -> [String] {
        let directory = TemporaryDirectory()
        let saved = try makeContainer(.sqlite, in: directory).newContext()
        let pending = try makeContainer(.inMemory, in: directory).newContext()
        for (offset, name) in Self.names.enumerated() {
            for context in [saved, pending] {
                let task = TestTask(context: context)
                task.name = name
                task.count = offset
                task.notes = offset % 3 == 0 ? nil : name
            }
        }
        try saved.save()
        let request = FetchRequest<TestTask>(predicate: predicate, sortBy: [FetchSortDescriptor(\.count)])
        let fromSQL = try saved.fetch(request).map(\.name)
        let fromMemory = try pending.fetch(request).map(\.name)
        XCTAssertEqual(fromSQL, fromMemory, "SQL and memory disagree on \(predicate)", file: file, line: line)
        XCTAssertEqual(try saved.count(for: request), fromSQL.count, file: file, line: line)
        return fromSQL
    }

    // MARK: - MATCHES

    func testMatchesTheWholeValue() throws {
        XCTAssertEqual(try names(try .init(format: "name MATCHES %@", "[Bb]uy .*")), ["Buy milk", "buy bread"])
        XCTAssertEqual(try names(try .init(format: "name MATCHES 'ab'")), ["ab"], "no partial match: 'abc' does not match")
        XCTAssertEqual(try names(try .init(format: "name MATCHES '[0-9]{4}-[0-9]{2}-[0-9]{2} .*'")), ["2024-05-01 taxes"])
        XCTAssertEqual(try names(try .init(format: "name MATCHES ''")), [""])
        XCTAssertEqual(try names(try .init(format: "name MATCHES 'line.break'")), [], "'.' does not match a newline")
        XCTAssertEqual(try names(try .init(format: "NOT name MATCHES '.*a.*'")), ["Buy milk", "NAIVE", "line\nbreak", ""])
    }

    func testMatchesOptions() throws {
        XCTAssertEqual(try names(try .init(format: "name MATCHES[c] 'buy.*'")), ["Buy milk", "buy bread"])
        XCTAssertEqual(try names(try .init(format: "name MATCHES[d] 'eclair.*'")), ["eclair"])
        XCTAssertEqual(try names(try .init(format: "name MATCHES[cd] 'eclair.*'")), ["Éclair recipe", "eclair"])
        XCTAssertEqual(try names(try .init(format: "name MATCHES[cd] 'na[i]ve'")), ["naïve", "NAIVE"])
        XCTAssertEqual(try names(try .init(format: "notes MATCHES[c] 'NA.*'")), ["naïve", "NAIVE"].filter { name in
            Self.names.firstIndex(of: name).map { $0 % 3 != 0 } ?? false
        }, "nil never matches")
    }

    func testTypedMatches() throws {
        XCTAssertEqual(try names(try .matches(\.name, "c.*", options: .caseInsensitive)), ["Call mom"])
        XCTAssertEqual(try names(try .matches(\.notes, ".*e.*") && \.count > 3), ["eclair", "2024-05-01 taxes"])
    }

    func testInvalidRegularExpressionsFailAtCreation() {
        for make in [{ _ = try FetchPredicate<TestTask>(format: "name MATCHES 'a('") },
                     { _ = try FetchPredicate<TestTask>(format: "name MATCHES[c] %@", "[z-a]") },
                     { _ = try FetchPredicate<TestTask>.matches(\.name, "a)|(b") }] {
            XCTAssertThrowsError(try make()) { error in
                XCTAssertEqual((error as? PersistError)?.code, .invalidPredicate)
                XCTAssertTrue("\(error)".contains("Invalid regular expression '"), "\(error)")
            }
        }
        XCTAssertThrowsError(try FetchPredicate<TestTask>(format: "name MATCHES 'a('")) {
            XCTAssertTrue("\($0)".contains("'a('") && "\($0)".contains("at position 5"), "\($0)")
        }
        XCTAssertThrowsError(try FetchPredicate<TestTask>(format: "count MATCHES '1'")) {
            XCTAssertTrue("\($0)".contains("MATCHES needs a string attribute"), "\($0)")
        }
    }

    // MARK: - BETWEEN

    func testBetweenWithAnArrayArgument() throws {
        XCTAssertEqual(try names(try .init(format: "count BETWEEN %@", [2, 4])), ["Call mom", "Éclair recipe", "eclair"])
        XCTAssertEqual(try names(try .init(format: "count BETWEEN {2, 4}")), ["Call mom", "Éclair recipe", "eclair"])
        XCTAssertEqual(try names(try .init(format: "count BETWEEN %@", [4, 2])), [])
        XCTAssertEqual(try names(try .init(format: "NOT count BETWEEN %@", [1.5, 10])), ["Buy milk", "buy bread", "abc"])
        XCTAssertEqual(try names(try .init(format: "name BETWEEN %@", ["a", "c"])), ["buy bread", "ab", "abc"])
        XCTAssertEqual(try names(.between(\.count, 2...4)), ["Call mom", "Éclair recipe", "eclair"])
        XCTAssertEqual(try names(.between(\.notes, "a"..."c")), ["buy bread", "ab", "abc"])
    }

    func testBetweenErrors() {
        for (format, arguments, fragment) in [("count BETWEEN %@", [[1, 2, 3]] as [Any], "BETWEEN needs two bounds"),
                                              ("count BETWEEN %@", [5], "BETWEEN needs two bounds: an array [low, high], not Int"),
                                              ("count BETWEEN %@", [["a", "b"]], "does not fit count"),
                                              ("%@ BETWEEN count", [[1, 2]], "or an array argument %@"),
                                              ("name BETWEEN[c] %@", [["a", "b"]], "not >=")] {
            XCTAssertThrowsError(try FetchPredicate<TestTask>(format: format, argumentArray: arguments), format) {
                XCTAssertEqual(($0 as? PersistError)?.code, .invalidPredicate)
                XCTAssertTrue("\($0)".contains(fragment), "\(format): \($0)")
            }
        }
    }

    // MARK: - Variables

    func testSubstitutionVariables() throws {
        let template = try FetchPredicate<TestTask>(format: "name BEGINSWITH[c] $PREFIX AND count <= $MAX")
        XCTAssertEqual(try names(try template.withSubstitutionVariables(["PREFIX": "b", "MAX": 5])), ["Buy milk", "buy bread"])
        XCTAssertEqual(try names(try template.withSubstitutionVariables(["PREFIX": "b", "MAX": 0])), ["Buy milk"])
        let between = try FetchPredicate<TestTask>(format: "count BETWEEN $RANGE OR name MATCHES $PATTERN OR notes IN $NOTES")
        let filled = try between.withSubstitutionVariables(["RANGE": [10, 11], "PATTERN": "C.*", "NOTES": ["eclair", "ab"]])
        XCTAssertEqual(try names(filled), ["Call mom", "eclair", "ab", "abc"])
        let flipped = try FetchPredicate<TestTask>(format: "$LIMIT > count")
        XCTAssertEqual(try names(try flipped.withSubstitutionVariables(["LIMIT": 2])), ["Buy milk", "buy bread"])
        let optional = try FetchPredicate<TestTask>(format: "notes == $NOTE")
        XCTAssertEqual(try names(try optional.withSubstitutionVariables(["NOTE": NSNull()])).count, 4)
        XCTAssertEqual(try names(try optional.withSubstitutionVariables(["NOTE": Optional<String>.none as Any])).count, 4)
    }

    func testUnsubstitutedVariablesFailAtFetch() throws {
        let template = try FetchPredicate<TestTask>(format: "name == $NAME OR count == $COUNT")
        let partly = try template.withSubstitutionVariables(["NAME": "ab", "OTHER": 1])
        for predicate in [template, partly] {
            XCTAssertThrowsError(try names(predicate)) { error in
                XCTAssertEqual((error as? PersistError)?.code, .invalidPredicate)
                XCTAssertTrue("\(error)".contains("The variable $"), "\(error)")
                XCTAssertTrue("\(error)".contains("withSubstitutionVariables"), "\(error)")
            }
        }
        XCTAssertThrowsError(try names(partly)) { XCTAssertTrue("\($0)".contains("$COUNT at position 23"), "\($0)") }
    }

    func testVariableErrors() {
        XCTAssertThrowsError(try FetchPredicate<TestTask>(format: "count CONTAINS $X")) {
            XCTAssertTrue("\($0)".contains("CONTAINS needs a string attribute"), "\($0)")
        }
        XCTAssertThrowsError(try FetchPredicate<TestTask>(format: "nosuchkey == $X")) {
            XCTAssertTrue("\($0)".contains("Unknown key 'nosuchkey'"), "\($0)")
        }
        let template = try? FetchPredicate<TestTask>(format: "count == $X AND name MATCHES $P")
        XCTAssertThrowsError(try template?.withSubstitutionVariables(["X": "many"])) {
            XCTAssertTrue("\($0)".contains("does not fit count"), "\($0)")
        }
        XCTAssertThrowsError(try template?.withSubstitutionVariables(["P": "(("])) {
            XCTAssertTrue("\($0)".contains("Invalid regular expression '(('"), "\($0)")
        }
    }

    // MARK: - Escapes

    func testEscapesInStringLiterals() throws {
        XCTAssertEqual(try names(try .init(format: #"name == "\x61\x62""#)), ["ab"])
        XCTAssertEqual(try names(try .init(format: #"name == "\141\142c""#)), ["abc"])
        XCTAssertEqual(try names(try .init(format: #"name == "line\012break""#)), ["line\nbreak"])
        XCTAssertEqual(try names(try .init(format: #"name == "\u00c9clair recipe""#)), ["Éclair recipe"])
        XCTAssertEqual(try names(try .init(format: #"name == "na\xefve""#)), ["naïve"])
    }
}
