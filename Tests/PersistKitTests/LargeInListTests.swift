import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Large `IN` lists and ORs of equalities (issue 30.4): written as one JSON array that SQLite
/// reads with `json_each` and looks up through the index, instead of running as a full table
/// scan past 5,000 values or 2,000 comparisons; results equal an evaluation in memory.
final class LargeInListTests: XCTestCase {
    private var directory = TemporaryDirectory()

    override func setUp() { directory = TemporaryDirectory() }

    /// Names that JSON must escape, and ones SQLite could mistake for numbers.
    private static func name(_ index: Int) -> String {
        switch index % 5 {
        case 0: return "p\(index)"
        case 1: return "q\"uote\\d \(index)"
        case 2: return "cafe\u{301} \(index)\t"
        case 3: return "\(index)"
        default: return "ctl\u{1}\(index) 😀"
        }
    }

    private func makeStore(count: Int) throws -> (PersistentContainer, ManagedObjectContext) {
        let container = try makeGraphContainer(directory)
        let context = container.newContext()
        for index in 0..<count {
            let project = GProject(context: context)
            project.name = Self.name(index)
            project.rank = index
        }
        try context.save()
        return (container, context)
    }

    func testAnInListOfManyNamesUsesTheUniqueIndex() throws {
        let (container, _) = try makeStore(count: 20_000)
        let context = container.newContext()
        var rng = SeededGenerator(seed: testSeed("LargeInListTests.testAnInListOfManyNamesUsesTheUniqueIndex"))
        let wanted = (0..<7_000).map { _ in Int.random(in: 0..<25_000, using: &rng) }   // some match nothing
        let names = wanted.map(Self.name)
        let request = FetchRequest<GProject>(predicate: try .init(format: "name IN %@", names), sortBy: [FetchSortDescriptor(\.rank)])

        let explanation = try context.explain(request)
        XCTAssertEqual(explanation.evaluation, .sql, "\(explanation)")
        XCTAssertEqual(explanation.boundValueCount, 1, "one JSON array")
        XCTAssertTrue(explanation.queryPlan.contains { $0.contains("USING") && $0.contains("INDEX") }, "\(explanation.queryPlan)")
        XCTAssertFalse(explanation.queryPlan.contains { $0.hasPrefix("SCAN GProject") }, "\(explanation.queryPlan)")

        let expected = Set(wanted.filter { $0 < 20_000 }).sorted()
        XCTAssertEqual(try context.fetch(request).map(\.rank), expected)
        XCTAssertEqual(try context.count(for: request), expected.count)
        let negated = FetchRequest<GProject>(predicate: try .init(format: "NOT (name IN %@)", names))
        XCTAssertEqual(try context.count(for: negated), 20_000 - expected.count)
    }

    /// `rank == 1 OR rank == 2 OR ...` with 3,000 terms (past the 2,000 comparisons that used to
    /// make a full scan through `pk_predicate`): one list, in SQL, the same rows as in memory.
    func testAnOrOfManyEqualitiesIsOneListInSQL() throws {
        let (container, _) = try makeStore(count: 5_000)
        let context = container.newContext()
        let ranks = (0..<3_000).map { $0 * 3 }
        let format = ranks.map { "rank == \($0)" }.joined(separator: " OR ")
        let request = FetchRequest<GProject>(predicate: try .init(format: format), sortBy: [FetchSortDescriptor(\.rank)])
        XCTAssertEqual(try context.explain(request).evaluation, .sql)
        XCTAssertEqual(try context.fetch(request).map(\.rank), ranks.filter { $0 < 5_000 })
        let some = try context.fetch(FetchRequest<GProject>(predicate: \.rank < 300))
        let predicate = try FetchPredicate<GProject>(format: format)
        XCTAssertEqual(Set(try some.filter { try predicate.evaluate(with: $0) }.map(\.rank)), Set(ranks.filter { $0 < 300 }))
    }

    /// Reals and integers mixed in one list, against a real-valued and an integer column, as
    /// the short list would compare them; a list with nil matches nil too.
    func testNumbersAndNilCompareAsTheShortListDoes() throws {
        let (container, _) = try makeStore(count: 300)
        let context = container.newContext()
        let long = (0..<100).map { $0 % 2 == 0 ? SQLValue.integer(Int64($0)) : .real(Double($0)) }
        let values: [Any] = long.map { value -> Any in
            switch value {
            case .integer(let integer): return Int(integer)
            case .real(let real): return real
            default: return 0
            }
        }
        let longRequest = FetchRequest<GProject>(predicate: try .init(format: "rank IN %@", argumentArray: [values]))
        let shortRequest = FetchRequest<GProject>(predicate: try .init(format: "rank IN %@", argumentArray: [Array(values.prefix(40))]))
        XCTAssertEqual(try context.count(for: longRequest), 100)
        XCTAssertEqual(try context.count(for: shortRequest), 40)
        XCTAssertEqual(try context.explain(longRequest).boundValueCount, 1)
    }
    // MARK: - Every size, every kind of member, against the evaluator

    /// Items keyed 0, 3, 6, ... through the unique index on `key`; labels that JSON must
    /// escape (or nil), amounts that are reals, integral reals or nil.
    private func makeItems(count: Int) throws -> ManagedObjectContext {
        let container = try PersistentContainer(model: ManagedObjectModel(entities: [KeyedItem.self]),
                                                store: .sqlite(directory.file("items.sqlite")))
        let context = container.newContext()
        for index in 0..<count {
            let item = KeyedItem(context: context)
            item.key = Int64(index * 3)
            item.label = index % 7 == 6 ? nil : Self.name(index)
            item.amount = index % 5 == 4 ? nil : (index % 2 == 0 ? Double(index) : Double(index) + 0.25)
        }
        try context.save()
        return container.newContext()
    }

    /// The fetch (SQL) and the predicate evaluated on every object in memory agree, in both
    /// senses (`IN` and `NOT IN`); returns the bound values of the fetch.
    @discardableResult
    private func checkAgreement(_ context: ManagedObjectContext, _ predicate: FetchPredicate<KeyedItem>,
                                _ what: String, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let everything = try context.fetch(FetchRequest<KeyedItem>(sortBy: [FetchSortDescriptor(\.key)]))
        for (sense, candidate) in [("IN", predicate), ("NOT IN", !predicate)] {
            let request = FetchRequest<KeyedItem>(predicate: candidate, sortBy: [FetchSortDescriptor(\.key)])
            let explanation = try context.explain(request)
            XCTAssertEqual(explanation.evaluation, .sql, "\(what) \(sense): \(explanation)", file: file, line: line)
            // One evaluator for every object (`evaluate(with:)` would build one per object).
            let evaluator = try PredicateEvaluator(node: candidate.node, entity: try XCTUnwrap(everything.first).entity)
            let expected = try everything.filter { try evaluator.evaluate($0) }.map(\.key)
            XCTAssertEqual(try context.fetch(request).map(\.key), expected, "\(what) \(sense)", file: file, line: line)
            XCTAssertEqual(try context.count(for: request), expected.count, "\(what) \(sense)", file: file, line: line)
        }
        return try context.explain(FetchRequest<KeyedItem>(predicate: predicate)).boundValueCount
    }

    /// Lists of 0, 1, 64, 65 and 50,000 keys, half of them present: the same rows as in memory;
    /// up to 64 members are parameters, from 65 one JSON array.
    func testListsOfEverySizeMatchTheEvaluator() throws {
        let context = try makeItems(count: 600)
        var rng = SeededGenerator(seed: testSeed("LargeInListTests.testListsOfEverySizeMatchTheEvaluator"))
        for size in [0, 1, 64, 65, 50_000] {
            let keys = (0..<size).map { _ in Int64.random(in: -5...2_000, using: &rng) }
            let bound = try checkAgreement(context, .in(\.key, keys), "\(size) keys")
            XCTAssertEqual(bound, size == 0 ? 0 : (size <= PredicateSemantics.jsonListThreshold ? Set(keys).count : 1), "\(size) keys")
            let labels = keys.map { Self.name(Int($0)) }
            try checkAgreement(context, try .init(format: "label IN %@", labels), "\(size) labels")
            let format = keys.isEmpty ? "FALSEPREDICATE" : keys.map { "key == \($0)" }.joined(separator: " OR ")
            try checkAgreement(context, try .init(format: format), "an OR of \(size) equalities")
        }
    }

    /// Integers, integral reals and fractions in one list against a real and an integer column;
    /// nil in the list; strings with quotes, backslashes, control characters, combining marks,
    /// emoji and digits only; a string with U+0000 (kept as parameters).
    func testMixedMembersNilAndHardStringsMatchTheEvaluator() throws {
        let context = try makeItems(count: 600)
        let numbers: [Any] = (0..<300).map { index -> Any in
            switch index % 3 {
            case 0: return index            // an Int: equals the integral amounts
            case 1: return Double(index) + 0.25
            default: return Double(index)   // an integral real: equals the integer keys
            }
        }
        try checkAgreement(context, try .init(format: "amount IN %@", argumentArray: [numbers]), "mixed amounts")
        try checkAgreement(context, try .init(format: "key IN %@", argumentArray: [numbers]), "mixed keys")
        let withNil: [Any] = numbers + [NSNull()]
        try checkAgreement(context, try .init(format: "amount IN %@", argumentArray: [withNil]), "amounts and nil")
        let labels: [Any] = (0..<200).map { Self.name($0) } + [NSNull(), "", "it's", "\"quoted\"", "back\\slash",
                                                                "\u{1F600}\u{200D}\u{1F525}", "e\u{301}", "\u{E9}", "日本語"]
        XCTAssertEqual(try checkAgreement(context, try .init(format: "label IN %@", argumentArray: [labels]), "labels and nil"), 1)
        let nul = (0..<100).map { "nul\u{0}\($0)" } + [Self.name(3)]
        XCTAssertEqual(try checkAgreement(context, .in(\.label, nul), "labels with U+0000"), 101, "kept as parameters")
        // Precomposed and decomposed spellings are different values, as a parameter compares them.
        let decomposed = (0..<100).map { Self.name($0 * 5 + 2) }
        let precomposed = (0..<100).map { "caf\u{E9} \($0 * 5 + 2)\t" }
        let byDecomposed = try context.count(for: FetchRequest<KeyedItem>(predicate: .in(\.label, decomposed)))
        XCTAssertGreaterThan(byDecomposed, 0)
        XCTAssertEqual(try context.count(for: FetchRequest<KeyedItem>(predicate: .in(\.label, precomposed))), 0)
    }

    /// The plan of a long list on an indexed integer column, and of an OR of equalities on it:
    /// SQLite searches the unique index member by member, never scans the table.
    func testTheQueryPlanSearchesTheIndex() throws {
        let context = try makeItems(count: 1_000)
        let keys = (0..<50_000).map { Int64($0 * 7) }
        let format = (0..<500).map { "key == \($0 * 7)" }.joined(separator: " OR ")
        for predicate in [FetchPredicate<KeyedItem>.in(\.key, keys), try .init(format: format)] {
            let plan = try context.explain(FetchRequest(predicate: predicate)).queryPlan
            XCTAssertTrue(plan.contains { $0.hasPrefix("SEARCH KeyedItem USING") && $0.contains("INDEX") && $0.contains("(key=?)") }, "\(plan)")
            XCTAssertFalse(plan.contains { $0.hasPrefix("SCAN KeyedItem") }, "\(plan)")
        }
    }
}

