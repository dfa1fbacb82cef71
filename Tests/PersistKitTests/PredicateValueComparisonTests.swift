import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// An entity for comparisons of computed values: numbers, dates, strings, a to-one to itself.
final class Ledger: ManagedObject {
    @Attribute var seq = 0
    @Attribute var budget: Int?
    @Attribute var spent: Int?
    @Attribute var rate: Double?
    @Attribute var start: Date?
    @Attribute var end: Date?
    @Attribute var title: String?
    @Attribute var note: String?
    @Relationship(inverse: .none) var parent: Ledger?
}

/// A key compared with another key, and arithmetic, in format strings: each form answers the
/// same from SQL (saved rows) and from memory (the same rows unsaved), and what SQLite answers.
final class PredicateValueComparisonTests: XCTestCase {
    private struct Row {
        var budget: Int?, spent: Int?, rate: Double?, start: Date?, end: Date?, title: String?, note: String?, parent: Int?
    }

    private static let rows: [Row] = [
        Row(budget: 10, spent: 3, rate: 2.5, start: day(0), end: day(0) + 3_600, title: "milk", note: "Milk run", parent: nil),
        Row(budget: 7, spent: 7, rate: nil, start: day(0), end: day(-1), title: "Garden", note: "garden", parent: 1),
        Row(budget: nil, spent: 5, rate: 0, start: nil, end: day(0), title: "a", note: nil, parent: 2),
        Row(budget: Int.max, spent: 1, rate: -1.5, start: day(1), end: day(1), title: "abc", note: "b", parent: 1),
        Row(budget: 0, spent: 0, rate: 1e300, start: day(0), end: nil, title: nil, note: "x", parent: 3),
        Row(budget: Int.min, spent: -1, rate: 7, start: nil, end: nil, title: "x", note: "x", parent: 6),
        Row(budget: nil, spent: nil, rate: nil, start: nil, end: nil, title: nil, note: nil, parent: nil),
    ]

    private static func insertRows(_ context: ManagedObjectContext) {
        var objects: [Ledger] = []
        for (index, row) in rows.enumerated() {
            let ledger = Ledger(context: context)
            ledger.seq = index + 1
            ledger.budget = row.budget; ledger.spent = row.spent; ledger.rate = row.rate
            ledger.start = row.start; ledger.end = row.end; ledger.title = row.title; ledger.note = row.note
            objects.append(ledger)
        }
        for (index, row) in rows.enumerated() { objects[index].parent = row.parent.map { objects[$0 - 1] } }
    }

    private var saved: ManagedObjectContext!
    private var pending: ManagedObjectContext!
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: [Ledger.self])
        saved = try PersistentContainer(model: model, store: .sqlite(directory.file("saved.sqlite"))).newContext()
        Self.insertRows(saved)
        try saved.save()
        pending = try PersistentContainer(model: model, store: .sqlite(directory.file("pending.sqlite"))).newContext()
        Self.insertRows(pending)
    }

    /// The rows (by `seq`) the format selects, from SQL and from memory alike.
    private func assertSelects(_ format: String, _ arguments: Any..., selects expected: [Int],
                               file: StaticString = #filePath, line: UInt = #line) {
        do {
            let request = FetchRequest<Ledger>(predicate: try FetchPredicate(format: format, argumentArray: arguments),
                                               sortBy: [FetchSortDescriptor(\.seq)])
            let fromSQL = try saved.fetch(request).map(\.seq)
            let fromMemory = try pending.fetch(request).map(\.seq)
            XCTAssertEqual(fromSQL, expected, "SQL: \(format)", file: file, line: line)
            XCTAssertEqual(fromMemory, expected, "memory: \(format)", file: file, line: line)
            XCTAssertEqual(try saved.count(for: request), expected.count, "SQL count: \(format)", file: file, line: line)
            // NOT flips every answer: no comparison is SQL's unknown.
            let negated = FetchRequest<Ledger>(predicate: try FetchPredicate(format: "NOT (\(format))", argumentArray: arguments),
                                               sortBy: [FetchSortDescriptor(\.seq)])
            let rest = (1...Self.rows.count).filter { !expected.contains($0) }
            XCTAssertEqual(try saved.fetch(negated).map(\.seq), rest, "SQL: NOT \(format)", file: file, line: line)
            XCTAssertEqual(try pending.fetch(negated).map(\.seq), rest, "memory: NOT \(format)", file: file, line: line)
        } catch {
            XCTFail("\(format): \(error)", file: file, line: line)
        }
    }

    func testKeyComparedWithKey() {
        // nil equals nil only; orderings with nil are false, as for a key compared with a value.
        assertSelects("budget == spent", selects: [2, 5, 7])
        assertSelects("budget != spent", selects: [1, 3, 4, 6])
        assertSelects("budget > spent", selects: [1, 4])
        assertSelects("spent >= budget", selects: [2, 5, 6])
        assertSelects("budget < spent", selects: [6])
        assertSelects("end > start", selects: [1])
        assertSelects("end <= start", selects: [2, 4])
        assertSelects("title == note", selects: [6, 7])
        assertSelects("title < note", selects: [2, 4])
        assertSelects("title ==[c] note", selects: [2, 6])
        assertSelects("title !=[c] note", selects: [1, 3, 4, 5, 7])
        assertSelects("note CONTAINS[c] title", selects: [1, 2, 6])
        assertSelects("note BEGINSWITH title", selects: [6])
        assertSelects("title LIKE note", selects: [6])
    }

    func testKeyComparedWithKeyThroughToOnes() {
        assertSelects("parent.budget < budget", selects: [4])
        assertSelects("budget == parent.budget", selects: [6, 7])
        assertSelects("parent.spent == nil", selects: [1, 7])
        assertSelects("parent.parent.spent < spent", selects: [3])
        assertSelects("title == parent.title", selects: [6, 7])
        assertSelects("budget > parent.budget - 5", selects: [2, 4])
    }

    func testArithmeticAsSQLiteComputesIt() {
        assertSelects("budget - spent < 0", selects: [6])
        // Int.max + 1 overflows into a real, as in SQLite; Int.min - 1 too.
        assertSelects("budget + spent > 0", selects: [1, 2, 4])
        // Integer division truncates; division by zero is nil.
        assertSelects("budget / spent == 3", selects: [1])
        assertSelects("budget / spent == nil", selects: [3, 5, 7])
        assertSelects("budget / 4 == 2", selects: [1])
        assertSelects("budget / 4.0 == 2.5", selects: [1])
        assertSelects("budget / 0.0 == nil", selects: [1, 2, 3, 4, 5, 6, 7])
        assertSelects("rate * 2 >= 5", selects: [1, 5, 6])
        assertSelects("rate * 1e10 > 1e300", selects: [5])
        // -Int.min is a real; -budget > 0 only there and where budget < 0.
        assertSelects("-budget > 0", selects: [6])
        assertSelects("- budget == 0 - budget", selects: [1, 2, 3, 4, 5, 6, 7])
        assertSelects("(budget - spent) * 2 >= 10", selects: [1, 4])
        assertSelects("budget - spent * 2 == 4", selects: [1])
        assertSelects("(budget - spent) * 2 == 14", selects: [1])
        assertSelects("budget * 2 + 1 == 21", selects: [1])
        assertSelects("2 * (budget + 1) == 22", selects: [1])
        assertSelects("((budget)) == 10", selects: [1])
        assertSelects("budget -1 == 9", selects: [1])
        assertSelects("budget - -1 == 11", selects: [1])
        assertSelects("1 + 1 == 2 AND spent == 3", selects: [1])
        assertSelects("budget > %@ * %@", 2, 4, selects: [1, 4])
        assertSelects("rate > %@ + %@", 1.5, 0.5, selects: [1, 5, 6])
        assertSelects("budget + nil == nil", selects: [1, 2, 3, 4, 5, 6, 7])
    }

    func testDateArithmetic() {
        assertSelects("end - start > 0", selects: [1])
        assertSelects("end - start == 3600", selects: [1])
        assertSelects("end >= start + 3600", selects: [1])
        assertSelects("start < %@ + 86400", day(0), selects: [1, 2, 5])
        assertSelects("start + 86400 <= %@", day(1), selects: [1, 2, 5])
        assertSelects("end - 3600 == start", selects: [1, 6, 7])
        assertSelects("parent.start - start > 0", selects: [])
        assertSelects("start - parent.start == 86400", selects: [4])
    }

    func testWrongTypesAreRefusedWithTheirPosition() {
        assertInvalid("title + 1 > 2", position: 6, "+ needs numbers or dates, not a string")
        assertInvalid("budget > title", position: 7, "> compares a number with a string")
        assertInvalid("start + end > %@", day(0), position: 6, "A date + a date is not defined")
        assertInvalid("start * 2 > 0", position: 6, "A date * a number is not defined")
        assertInvalid("start > budget", position: 6, "> compares a date with a number")
        assertInvalid("-title == 'x'", position: 0, "Unary minus needs a number, not a string")
        assertInvalid("budget CONTAINS title", position: 7, "CONTAINS compare strings, not a number")
        assertInvalid("title MATCHES note", position: 6, "MATCHES needs a constant pattern")
        assertInvalid("budget IN spent", position: 7, "IN needs a list")
        assertInvalid("parent == parent.parent", position: 0, "parent is an object, not an attribute")
        assertInvalid("budget + 1 > $LIMIT", position: 13, "The variable $LIMIT cannot be compared with a key")
        assertInvalid("budget + %@ > 1", "2", position: 7, "+ needs numbers or dates, not a string")
        assertInvalid("budget > rate BETWEEN {1, 2}", position: 14, "expected AND, OR or the end of the format")
    }

    func testSyntaxErrorsCarryTheirPosition() {
        assertInvalid("budget + > 1", position: 9, "expected a key or value after '+'")
        assertInvalid("budget * * 2 > 1", position: 9, "expected a key or value after '*'")
        assertInvalid("(budget - spent < 0", position: 19, "expected ')'")
        assertInvalid("budget - (spent < 0", position: 16, "expected ')' to close the '(' at position 9")
        assertInvalid("NOT (budget - spent) < 0", position: 19, "expected a comparison operator")
        let long = "budget" + String(repeating: " + 1", count: 65) + " > 0"
        assertInvalid(long, position: 6 + 64 * 4 + 1, "more than 64 operators")
    }

    func testToManysOnEitherSideAreRefused() throws {
        for (format, fragment) in [("tags.weight > rank", "goes through the to-many relationship tags"),
                                   ("ANY tags.weight > rank", "ANY compares each object's value with a constant"),
                                   ("rank < tags.@count + 1", "tags.@count"),
                                   ("SUBQUERY(tags, $t, $t.weight > 1).@count > rank", "SUBQUERY(...).@count can only be compared with a constant")] {
            XCTAssertThrowsError(try FetchPredicate<RPTask>(format: format), format) { error in
                let error = error as? PersistError
                XCTAssertEqual(error?.code, .invalidPredicate, format)
                XCTAssertNotNil(error?.position, format)
                XCTAssertTrue(error?.message.contains(fragment) == true, "\(format): \(error?.message ?? "")")
            }
        }
    }

    private func assertInvalid(_ format: String, _ arguments: Any..., position: Int, _ fragment: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try FetchPredicate<Ledger>(format: format, argumentArray: arguments), format, file: file, line: line) { error in
            let error = error as? PersistError
            XCTAssertEqual(error?.code, .invalidPredicate, format, file: file, line: line)
            XCTAssertEqual(error?.position, position, "\(format): \(error?.message ?? "")", file: file, line: line)
            XCTAssertTrue(error?.message.contains(fragment) == true, "\(format): \(error?.message ?? "")", file: file, line: line)
        }
    }

    /// Arithmetic in memory is SQLite's, operator by operator, on the values where they differ
    /// from Swift's: overflow, division by zero, -Int64.min, NaN.
    func testMemoryArithmeticIsSQLites() throws {
        let connection = try SQLiteConnection(path: directory.file("arithmetic.sqlite").path, configuration: .init())
        let values: [SQLValue] = [.integer(0), .integer(1), .integer(-1), .integer(7), .integer(-7), .integer(2),
                                  .integer(Int64.max), .integer(Int64.min), .integer(3_037_000_500), .real(0), .real(-0.0),
                                  .real(2.5), .real(-7), .real(1e308), .real(-.infinity), .real(.infinity), .null]
        for a in values {
            for b in values {
                for op in ArithmeticOperator.allCases {
                    let statement = try connection.prepare("SELECT ?1 \(op.symbol) ?2")
                    try statement.bind([a, b])
                    let row = try XCTUnwrap(try statement.step() ? statement.value(at: 0) : nil)
                    let memory = PredicateSemantics.arithmetic(op, a, b)
                    XCTAssertTrue(Self.same(memory, row), "\(a) \(op.symbol) \(b): memory \(memory), SQLite \(row)")
                }
                let statement = try connection.prepare("SELECT - ?1")
                try statement.bind([a])
                let row = try XCTUnwrap(try statement.step() ? statement.value(at: 0) : nil)
                XCTAssertTrue(Self.same(PredicateSemantics.negate(a), row), "-\(a): memory \(PredicateSemantics.negate(a)), SQLite \(row)")
            }
        }
    }

    private static func same(_ a: SQLValue, _ b: SQLValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.integer(let x), .integer(let y)): return x == y
        case (.real(let x), .real(let y)): return x.bitPattern == y.bitPattern || (x == 0 && y == 0)
        default: return false
        }
    }
}
