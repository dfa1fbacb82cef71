import Foundation
import PersistKitTestSupport
import PersistKitText
import XCTest
@testable import PersistKit

/// A name whose pattern rule backtracks without end on some values.
final class RBPatterned: ManagedObject {
    @Attribute(.pattern("(a+)+$")) var code: String
}

/// Every regular expression evaluation is bounded (`MATCHES` in SQL and in memory, attribute
/// patterns at save): a backtracking pattern is an error naming it, never a hung thread; a
/// match ICU cannot finish is an error, never "no match". `MATCHES[c]` folds case fully, as
/// `CONTAINS[c]` does.
final class RegexBoundTests: XCTestCase {
    /// 40 `a`s and a `b`: `(a+)+$` tries about 2^40 ways to split the `a`s before failing.
    private static let evilValue = String(repeating: "a", count: 40) + "b"

    private func expectBoundError(_ body: @autoclosure () throws -> some Any, _ pattern: String, _ message: String = "",
                                  file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), message, file: file, line: line) { error in
            guard let error = error as? PersistError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(error.code, .invalidPredicate, "\(message): \(error)", file: file, line: line)
            XCTAssertTrue(error.message.contains("'\(pattern)'"), "names the pattern: \(error)", file: file, line: line)
        }
    }

    private var directory = TemporaryDirectory()

    override func setUp() { directory = TemporaryDirectory() }

    /// A store with the values saved, and a context holding them unsaved.
    private func contexts(holding names: [String]) throws -> (saved: ManagedObjectContext, pending: ManagedObjectContext) {
        let saved = try makeContainer(.sqlite, in: directory).newContext()
        let pending = try makeContainer(.inMemory, in: directory).newContext()
        for context in [saved, pending] {
            for name in names {
                let task = TestTask(context: context)
                task.name = name
            }
        }
        try saved.save()
        return (saved, pending)
    }

    // MARK: The bound

    func testABacktrackingPatternIsAnErrorNamingItInSQLAndInMemory() throws {
        let (saved, pending) = try contexts(holding: ["fine", Self.evilValue])
        let predicate = try FetchPredicate<TestTask>(format: "name MATCHES '(a+)+$'")
        let request = FetchRequest<TestTask>(predicate: predicate)
        expectBoundError(try saved.fetch(request), "(a+)+$", "SQL")
        expectBoundError(try saved.count(for: request), "(a+)+$", "SQL count")
        expectBoundError(try pending.fetch(request), "(a+)+$", "memory")
        expectBoundError(try pending.count(for: request), "(a+)+$", "memory count")
        let object = try XCTUnwrap(saved.fetch(FetchRequest<TestTask>()).first { $0.name == Self.evilValue })
        expectBoundError(try predicate.evaluate(with: object), "(a+)+$", "evaluate(with:)")
        // Through the in-memory evaluator inside SQL (more comparisons than plain SQL takes).
        let large = try FetchPredicate<TestTask>(format: "name MATCHES '(a+)+$' AND " + (1...2_001).map { "count > -\($0)" }.joined(separator: " AND "))
        expectBoundError(try saved.fetch(FetchRequest<TestTask>(predicate: large)), "(a+)+$", "pk_predicate")
        // The bound is per value: the other values still match.
        XCTAssertEqual(try saved.fetch(FetchRequest<TestTask>(predicate: try .init(format: "name MATCHES '(f+)+ine'"))).map(\.name), ["fine"])
    }

    func testAControllerLeavesOutAnObjectItsPatternGivesUpOn() throws {
        let (saved, _) = try contexts(holding: ["aaa"])
        let controller = FetchedResultsController(fetchRequest: FetchRequest<TestTask>(
            predicate: try .init(format: "name MATCHES '(a+)+$'"), sortBy: [FetchSortDescriptor(\.name)]), context: saved)
        try controller.performFetch()
        XCTAssertEqual(controller.fetchedObjects.map(\.name), ["aaa"])
        let task = TestTask(context: saved)
        task.name = Self.evilValue
        saved.processPendingChanges()
        XCTAssertEqual(controller.fetchedObjects.map(\.name), ["aaa"], "placed as not matching, without hanging")
        XCTAssertThrowsError(try controller.performFetch())
    }

    func testAnAttributePatternThatGivesUpIsAValidationProblem() throws {
        let context = try makeContainer(.sqlite, in: directory, entities: [RBPatterned.self]).newContext()
        let object = RBPatterned(context: context)
        object.code = Self.evilValue
        XCTAssertThrowsError(try context.save()) { error in
            XCTAssertEqual((error as? PersistError)?.code, .validation)
            XCTAssertTrue("\(error)".contains("could not be checked against the pattern (a+)+$: matching gave up after"), "\(error)")
        }
        object.code = "aaaa"
        try context.save()
    }

    /// The bound grows with the value: patterns that run in linear time match long values.
    func testLinearPatternsMatchLongValues() throws {
        let long = String(repeating: "hello world ", count: 100_000)
        let regex = try PredicateRegex(pattern: ".*world.*", options: [])
        XCTAssertTrue(try regex.matches(long))
        XCTAssertFalse(try PredicateRegex(pattern: ".*xyz.*", options: []).matches(long))
        XCTAssertTrue(try PredicateRegex(pattern: "(hello world )*", options: .caseInsensitive).matches(long))
        XCTAssertTrue(try PredicateRegex(pattern: "[a-z ]+", options: []).matches(long))
        XCTAssertEqual(BoundedRegex.stepLimit(units: 1_200_000), 121_000_000)
        XCTAssertEqual(BoundedRegex.stepLimit(units: Int.max), Int.max, "no overflow")
    }

    /// ICU gives up on `(ab)*` over a million characters (its backtracking stack is full):
    /// that is an error, not "no match".
    func testAMatchICUCannotFinishIsAnError() throws {
        let (saved, pending) = try contexts(holding: [String(repeating: "ab", count: 500_000)])
        let request = FetchRequest<TestTask>(predicate: try .init(format: "name MATCHES '(ab)*'"))
        for (context, path) in [(saved, "SQL"), (pending, "memory")] {
            XCTAssertThrowsError(try context.fetch(request), path) { error in
                XCTAssertEqual((error as? PersistError)?.code, .invalidPredicate, "\(path): \(error)")
                XCTAssertTrue("\(error)".contains("'(ab)*'") && "\(error)".contains("could not finish"), "\(error)")
            }
        }
    }

    // MARK: [c] folds fully

    func testCaseInsensitiveMatchingFoldsCaseFully() throws {
        let values = ["STRASSE", "Straße", "STRAẞE", "ﬁle", "FILE", "\u{212A}elvin", "Kelvin", "ı", "I", "İ", "ΣΑΣ", "σας"]
        let (saved, pending) = try contexts(holding: values)
        func names(_ pattern: String, _ options: String = "c") throws -> Set<String> {
            let request = FetchRequest<TestTask>(predicate: try .init(format: "name MATCHES[\(options)] %@", pattern))
            let fromSQL = Set(try saved.fetch(request).map(\.name))
            XCTAssertEqual(fromSQL, Set(try pending.fetch(request).map(\.name)), "SQL and memory agree on \(pattern)")
            return fromSQL
        }
        XCTAssertEqual(try names("straße"), ["STRASSE", "Straße", "STRAẞE"])
        XCTAssertEqual(try names("STRASSE"), ["STRASSE", "Straße", "STRAẞE"])
        XCTAssertEqual(try names("stras+e"), ["STRASSE", "Straße", "STRAẞE"], "ß is ss to a quantifier too")
        XCTAssertEqual(try names("straß+e"), ["STRASSE", "Straße", "STRAẞE"], "a quantifier takes the whole fold of ß")
        XCTAssertEqual(try names("file"), ["ﬁle", "FILE"])
        XCTAssertEqual(try names("ﬁle"), ["ﬁle", "FILE"])
        XCTAssertEqual(try names("kelvin"), ["\u{212A}elvin", "Kelvin"])
        XCTAssertEqual(try names("ı"), ["ı", "I"], "dotless i folds to i, as CONTAINS[c] folds it")
        XCTAssertEqual(try names("i\u{307}"), ["İ"])
        XCTAssertEqual(try names("σας"), ["ΣΑΣ", "σας"])
        XCTAssertEqual(try names("\\S+"), Set(values), "escapes keep their case: \\S is not \\s")
        XCTAssertEqual(try names("\\p{Lu}.*"), Set(values), "property classes are closed over case")
        XCTAssertEqual(try names("(?<Word>str)a.*"), ["STRASSE", "Straße", "STRAẞE"], "group names are left as written")
        XCTAssertEqual(try names("\\Qstraße\\E"), ["STRASSE", "Straße", "STRAẞE"], "quoted text folds as literals")
        XCTAssertEqual(try names("stra[ßs]+e"), ["STRASSE", "Straße", "STRAẞE"])
    }

    /// Generated: for strings over letters whose folding is not one-to-one, `value MATCHES[c]
    /// p` (p escaped) agrees with `value ==[c] p`, and `value MATCHES[c] '.*p.*'` with
    /// `value CONTAINS[c] p`, in SQL and in memory. (Except `CONTAINS[c]` on values with "İ":
    /// it folds to "i" + U+0307, one character to `CONTAINS`, which never matches part of a
    /// character, and two scalars to a regular expression, which matches by scalars.)
    func testCaseInsensitiveMatchesAgreeWithEqualsAndContains() throws {
        let seed = testSeed("RegexBoundTests.testCaseInsensitiveMatchesAgreeWithEqualsAndContains")
        let rounds = testSize("RegexBoundTests.testCaseInsensitiveMatchesAgreeWithEqualsAndContains", full: 300, ci: 100)
        var random = SeededGenerator(seed: seed)
        let alphabet = ["a", "A", "s", "S", "ß", "ẞ", "ſ", "ﬁ", "f", "i", "I", "İ", "ı", "\u{212A}", "k", "σ", "ς", "Σ",
                        "é", "e\u{301}", "É", "ǅ", "ǆ", "Ǆ"]
        func word() -> String { (0..<Int.random(in: 0...4, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined() }
        let values = (0..<40).map { _ in word() }
        let (saved, pending) = try contexts(holding: values)
        for round in 0..<rounds {
            let pattern = word()
            let escaped = NSRegularExpression.escapedPattern(for: pattern)
            for (regex, op) in [(escaped, "==[c]"), (".*" + escaped + ".*", "CONTAINS[c]")] {
                let matching = FetchRequest<TestTask>(predicate: try .init(format: "name MATCHES[c] %@", regex))
                let reference = FetchRequest<TestTask>(predicate: try .init(format: "name \(op) %@", pattern))
                for (context, path) in [(saved, "SQL"), (pending, "memory")] {
                    let compared = { (objects: [TestTask]) in
                        Set(objects.filter { op == "==[c]" || !$0.name.contains("İ") }.map(\.objectID))
                    }
                    let got = compared(try context.fetch(matching)), expected = compared(try context.fetch(reference))
                    if got != expected {
                        let names = { (ids: Set<ObjectID>) in try context.fetch(FetchRequest<TestTask>()).filter { ids.contains($0.objectID) }.map(\.name) }
                        XCTFail("seed \(seed) round \(round) \(path): MATCHES[c] '\(regex)' only: \(try names(got.subtracting(expected))), \(op) '\(pattern)' only: \(try names(expected.subtracting(got)))")
                    }
                }
            }
        }
    }
}
