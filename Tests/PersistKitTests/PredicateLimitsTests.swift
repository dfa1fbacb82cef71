import PersistKitTestSupport
import Foundation
import XCTest
@testable import PersistKit

/// Very large and very deep predicates: they either work or fail with a clear
/// `.invalidPredicate`, on a 512 KB thread stack, never with SQLite's "parser stack overflow" or
/// "Expression tree is too large", and never by overflowing the stack.
final class PredicateLimitsTests: XCTestCase {
    private static let terms = ProcessInfo.processInfo.environment["CI"] == "true" ? 30_000 : 100_000

    /// Runs `body` on a thread with a 512 KB stack and returns its result.
    private func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.set(Result { try body() })
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
        guard let result = box.get() else { throw PersistError(.invalidRequest, "the thread produced nothing") }
        return try result.get()
    }

    /// Twenty tasks with counts 0, 7, 14, ... 133, saved in a fresh store.
    private static func makeContext(_ url: URL) throws -> ManagedObjectContext {
        let container = try PersistentContainer(model: ManagedObjectModel(entities: [TestTask.self]), store: .sqlite(url))
        let context = container.newContext()
        for n in 0..<20 {
            let task = TestTask(context: context)
            task.name = "t\(n)"
            task.count = n * 7
        }
        try context.save()
        return context
    }

    private static func counts(_ context: ManagedObjectContext, _ predicate: FetchPredicate<TestTask>) throws -> [Int] {
        try context.fetch(FetchRequest(predicate: predicate, sortBy: [FetchSortDescriptor(\.count)])).map(\.count)
    }

    private func assertInvalid(_ result: Result<[Int], any Error>, _ fragment: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        switch result {
        case .success(let counts):
            XCTFail("expected an error containing \"\(fragment)\", fetched \(counts)", file: file, line: line)
        case .failure(let error):
            XCTAssertEqual((error as? PersistError)?.code, .invalidPredicate, "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".contains(fragment), "expected \"\(fragment)\" in: \(error)", file: file, line: line)
        }
    }

    // MARK: - Wide predicates

    func testHundredThousandTermsBuiltWithOperatorsFetchOnASmallStack() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        let n = Self.terms
        let (evens, fourteen, pendingEvens) = try onSmallStack { () throws -> ([Int], [Int], [Int]) in
            let context = try Self.makeContext(url)
            // count != 1 AND count != 3 AND ...: no odd count below 2n.
            var noOdd = \TestTask.count != 1
            for i in 1..<n { noOdd = noOdd && \.count != 2 * i + 1 }
            // count >= 1000 OR count >= 1001 OR ... OR count == 14.
            var big = \TestTask.count >= 1000
            for i in 1..<n { big = big || \.count >= 1000 + i }
            big = big || \.count == 14
            let evens = try Self.counts(context, noOdd)
            let fourteen = try Self.counts(context, big)
            let pending = TestTask(context: context)
            pending.name = "pending"
            pending.count = 16
            return (evens, fourteen, try Self.counts(context, noOdd))
        }
        XCTAssertEqual(evens, [0, 14, 28, 42, 56, 70, 84, 98, 112, 126])
        XCTAssertEqual(fourteen, [14])
        XCTAssertEqual(pendingEvens, [0, 14, 16, 28, 42, 56, 70, 84, 98, 112, 126], "the evaluator agrees on pending objects")
    }

    func testHundredThousandTermsFromAFormatFetchOnASmallStack() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        let n = Self.terms
        let conjunction = (0..<n).map { "count != \(2 * $0 + 1)" }.joined(separator: " AND ")
        let disjunction = (0..<n).map { "count >= \(1000 + $0)" }.joined(separator: " || ") + " || count == 14"
        let equalities = (0..<n).map { "count == \(3 * $0)" }.joined(separator: " OR ")
        let (evens, fourteen, threes) = try onSmallStack { () throws -> ([Int], [Int], [Int]) in
            let context = try Self.makeContext(url)
            return (try Self.counts(context, try .init(format: conjunction)),
                    try Self.counts(context, try .init(format: disjunction)),
                    try Self.counts(context, try .init(format: equalities)))
        }
        XCTAssertEqual(evens, [0, 14, 28, 42, 56, 70, 84, 98, 112, 126])
        XCTAssertEqual(fourteen, [14])
        XCTAssertEqual(threes, [0, 21, 42, 63, 84, 105, 126])
    }

    /// The SQL of a wide group is chains of at most 64 terms, a few parentheses deep, not one
    /// level of parentheses per term; beyond 2,000 comparisons the predicate is one call of
    /// `pk_predicate` with one bound blob.
    func testWideGroupsCompileToShallowSQLOrToOneFunctionCall() throws {
        let entity = try XCTUnwrap(FetchPredicate<TestTask>.defaultEntity())
        let format = (0..<1_500).map { "count > \(-1 - $0)" }.joined(separator: " AND ")
        let compiled = try PredicateSQLCompiler.compile(try FetchPredicate<TestTask>(format: format).node, entity: entity)
        var depth = 0, deepest = 0
        for character in compiled.sql {
            if character == "(" { depth += 1; deepest = max(deepest, depth) }
            if character == ")" { depth -= 1 }
        }
        XCTAssertLessThanOrEqual(deepest, 5, compiled.sql.prefix(300) + "…")
        XCTAssertEqual(compiled.bindings.count, 1_500)
        // Equal values share a parameter.
        let repeated = try FetchPredicate<TestTask>(format: "count == 5 OR name == 'a' OR count > 5 OR name BEGINSWITH 'a'")
        XCTAssertEqual(try PredicateSQLCompiler.compile(repeated.node, entity: entity).bindings, [.integer(5), .text("a")])
        let large = (0..<2_001).map { "count > \(-1 - $0) AND name != 'x'" }.joined(separator: " AND ")
        let call = try PredicateSQLCompiler.compile(try FetchPredicate<TestTask>(format: large).node, entity: entity)
        XCTAssertEqual(call.sql, #"pk_predicate(?1, "count", "name")"#)
        XCTAssertEqual(call.bindings.count, 1)
    }

    /// Two large predicates over the same columns share the statement `pk_predicate(?1, ...)`:
    /// each run decodes its own predicate.
    func testLargePredicatesSharingAStatementStayApart() throws {
        let directory = TemporaryDirectory()
        let context = try Self.makeContext(directory.file("store.sqlite"))
        let odd = try FetchPredicate<TestTask>(format: (0..<3_000).map { "count != \(2 * $0)" }.joined(separator: " AND "))
        let even = try FetchPredicate<TestTask>(format: (0..<3_000).map { "count != \(2 * $0 + 1)" }.joined(separator: " AND "))
        for _ in 0..<2 {
            XCTAssertEqual(try Self.counts(context, odd), [7, 21, 35, 49, 63, 77, 91, 105, 119, 133])
            XCTAssertEqual(try Self.counts(context, even), [0, 14, 28, 42, 56, 70, 84, 98, 112, 126])
            XCTAssertEqual(try context.count(for: FetchRequest(predicate: odd)), 10)
        }
    }

    // MARK: - Deep predicates

    func testNestedParenthesesAreRejectedOnASmallStack() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        let parentheses = String(repeating: "(", count: 100_000) + "count == 14" + String(repeating: ")", count: 100_000)
        let braces = "count IN " + String(repeating: "{", count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        let result = try onSmallStack { () -> [Result<[Int], any Error>] in
            let context = try Self.makeContext(url)
            return [Result { try Self.counts(context, try .init(format: parentheses)) },
                    Result { try Self.counts(context, try .init(format: braces)) }]
        }
        assertInvalid(result[0], "more than 1000 levels of parentheses")
        assertInvalid(result[1], "more than 1000 levels of parentheses")
    }

    /// Alternating groups as deep as the limit (1,000) fetch, through SQL (the evaluator inside
    /// SQLite: nesting that deep is beyond SQLite's parser) and in memory, on a 512 KB stack;
    /// one level more, and 100,000 levels, are refused naming the limit, from a format and from
    /// operators alike.
    func testGroupNestingAtTheLimitFetchesAndBeyondIsRefused() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        let limit = PredicateNode.maximumNesting
        XCTAssertGreaterThanOrEqual(limit, 1_000)
        let (formatAtLimit, formatBeyond) = (Self.alternatingFormat(limit), Self.alternatingFormat(limit + 1))
        let formatFarBeyond = Self.alternatingFormat(100_000)
        let (deepest, pending, tooDeep) = try onSmallStack { () throws -> ([[Int]], [[Int]], [Result<[Int], any Error>]) in
            let context = try Self.makeContext(url)
            let deepest = [try Self.counts(context, try .init(format: formatAtLimit)),
                           try Self.counts(context, Self.alternatingOperators(limit))]
            let inserted = TestTask(context: context)
            inserted.name = "pending"
            inserted.count = 1   // fails `count != 1` at the top
            let pending = [try Self.counts(context, try .init(format: formatAtLimit)),
                           try Self.counts(context, Self.alternatingOperators(limit))]
            let object = try XCTUnwrap(try context.fetch(FetchRequest<TestTask>(predicate: \.count == 14)).first)
            XCTAssertTrue(try Self.alternatingOperators(limit).evaluate(with: object))
            XCTAssertFalse(try Self.alternatingOperators(limit).evaluate(with: inserted))
            return (deepest, pending, [Result { try Self.counts(context, try .init(format: formatBeyond)) },
                                       Result { try Self.counts(context, Self.alternatingOperators(limit + 1)) },
                                       Result { try Self.counts(context, try .init(format: formatFarBeyond)) },
                                       Result { try Self.counts(context, Self.alternatingOperators(100_000)) }])
        }
        // `count != 2 OR (...)` holds for every saved count, so everything matches.
        let all = (0..<20).map { $0 * 7 }
        XCTAssertEqual(deepest, [all, all])
        XCTAssertEqual(pending, [all, all])
        assertInvalid(tooDeep[0], "more than \(limit) levels")
        assertInvalid(tooDeep[1], "at most \(limit) levels")
        assertInvalid(tooDeep[2], "more than \(limit) levels")
        assertInvalid(tooDeep[3], "at most \(limit) levels")
        let entity = try XCTUnwrap(FetchPredicate<TestTask>.defaultEntity())
        let compiled = try PredicateSQLCompiler.compile(try FetchPredicate<TestTask>(format: formatAtLimit).node, entity: entity)
        XCTAssertTrue(compiled.sql.hasPrefix(PredicateFunction.name), "too deep for SQLite's parser: \(compiled.sql.prefix(80))")
    }

    /// `count != 1 AND (count != 2 OR (count != 3 AND (... (count == 14))))`, `levels` groups deep.
    private static func alternatingFormat(_ levels: Int) -> String {
        var format = ""
        for level in stride(from: 1, through: levels, by: 1) {
            format += "count != \(level) \(level % 2 == 1 ? "AND" : "OR") ("
        }
        return format + "count == 14" + String(repeating: ")", count: levels)
    }

    /// The same as ``alternatingFormat(_:)``, built with operators.
    private static func alternatingOperators(_ levels: Int) -> FetchPredicate<TestTask> {
        var predicate = \TestTask.count == 14
        for level in stride(from: levels, through: 1, by: -1) {
            predicate = level % 2 == 1 ? (\.count != level && predicate) : (\.count != level || predicate)
        }
        return predicate
    }

    /// `p = (p || a) && b` a hundred thousand times: the predicate becomes invalid past the limit
    /// instead of growing a tree that would overflow the stack when fetched or freed.
    func testDeepOperatorNestingBecomesAnInvalidPredicate() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        let n = Self.terms
        let (depth, result) = try onSmallStack { () -> (Int, Result<[Int], any Error>) in
            let context = try Self.makeContext(url)
            var predicate = \TestTask.count == 14
            for i in 0..<n { predicate = (predicate || \.count == i) && \.count != i + 1 }
            return (predicate.nesting.depth, Result { try Self.counts(context, predicate) })
        }
        XCTAssertLessThanOrEqual(depth, PredicateNode.maximumNesting)
        assertInvalid(result, "at most \(PredicateNode.maximumNesting) levels are supported")
    }

    func testNotChainsOfAnyLength() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        let n = Self.terms
        let words = String(repeating: "NOT ", count: n + 1) + "count == 14"
        let bangs = String(repeating: "!", count: n) + "(count == 14)"
        let counts = try onSmallStack { () throws -> [[Int]] in
            let context = try Self.makeContext(url)
            var negated = \TestTask.count == 14
            for _ in 0...n { negated = !negated }
            return [try Self.counts(context, try .init(format: words)), try Self.counts(context, try .init(format: bangs)),
                    try Self.counts(context, negated)]
        }
        let allButFourteen = (0..<20).map { $0 * 7 }.filter { $0 != 14 }
        XCTAssertEqual(counts[0], allButFourteen, "an odd number of NOTs is one NOT")
        XCTAssertEqual(counts[1], [14], "an even number of NOTs is none")
        XCTAssertEqual(counts[2], allButFourteen)
    }

    /// Trees built directly, as other producers (Foundation #Predicate translation) might: a
    /// binary AND chain 10,000 deep is flattened; alternating groups that deep are refused.
    func testDeepTreesFromOtherProducersAreFlattenedOrRefused() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        var chain = PredicateNode.compare(attribute: "count", .notEqual, .integer(1))
        var alternating = chain
        for i in 1..<10_000 {
            chain = .and([chain, .compare(attribute: "count", .notEqual, .integer(Int64(2 * i + 1)))])
            alternating = i % 2 == 0 ? .and([alternating, .constant(true)]) : .or([.not(alternating), .constant(false)])
        }
        let trees = (chain, alternating)
        let results = try onSmallStack { () -> [Result<[Int], any Error>] in
            let context = try Self.makeContext(url)
            return [Result { try Self.counts(context, FetchPredicate(node: trees.0)) },
                    Result { try Self.counts(context, FetchPredicate(node: trees.1)) },
                    Result {
                        let entity = try XCTUnwrap(FetchPredicate<TestTask>.defaultEntity())
                        _ = try PredicateEvaluator(node: trees.1, entity: entity)
                        return []
                    }]
        }
        XCTAssertEqual(try results[0].get(), [0, 14, 28, 42, 56, 70, 84, 98, 112, 126])
        assertInvalid(results[1], "at most \(PredicateNode.maximumNesting) levels")
        assertInvalid(results[2], "at most \(PredicateNode.maximumNesting) levels")
        XCTAssertEqual(PredicateNesting.of(chain).depth, 1)
        XCTAssertGreaterThan(PredicateNesting.of(alternating).depth, PredicateNode.maximumNesting)
    }

    // MARK: - Building chains

    private static func termsWritten(building count: Int, leftFold: Bool) -> Int {
        let before = PredicateChain.termsWritten.load(ordering: .relaxed)
        var predicate = \TestTask.count != 0
        for i in 1..<count {
            predicate = leftFold ? predicate && \.count != i : \.count != i && predicate
        }
        XCTAssertEqual(predicate.terms(true).count, count)
        return PredicateChain.termsWritten.load(ordering: .relaxed) - before
    }

    /// `p = p && q` (and `p = q && p`) n times writes O(n) terms, not the O(n²) of copying the
    /// chain at each step.
    func testBuildingAChainIsLinear() {
        for leftFold in [true, false] {
            let small = Self.termsWritten(building: 10_000, leftFold: leftFold)
            let large = Self.termsWritten(building: 100_000, leftFold: leftFold)
            XCTAssertLessThanOrEqual(small, 2 * 10_000, "leftFold \(leftFold)")
            XCTAssertLessThanOrEqual(large, 2 * 100_000, "leftFold \(leftFold)")
            XCTAssertLessThan(Double(large) / Double(small), 12, "leftFold \(leftFold): grows faster than linearly")
        }
    }

    /// Extending one predicate twice gives two independent predicates (the second copies).
    func testChainsBehaveAsValues() throws {
        let base = \TestTask.count != 1 && \.count != 2
        let a = base && \.count != 3
        let b = base && \.count == 4
        let c = \.count != 0 && base
        let d = \.count == 5 && base
        XCTAssertEqual(base.terms(true).count, 2)
        XCTAssertEqual(a.terms(true).count, 3)
        XCTAssertEqual(b.terms(true).count, 3)
        XCTAssertEqual(c.terms(true).count, 3)
        XCTAssertEqual(d.terms(true).count, 3)
        guard case .compare(_, .equal, .integer(4)) = b.terms(true)[2],
              case .compare(_, .notEqual, .integer(3)) = a.terms(true)[2],
              case .compare(_, .equal, .integer(5)) = d.terms(true)[0],
              case .compare(_, .notEqual, .integer(0)) = c.terms(true)[0] else {
            return XCTFail("a chain extended twice mixed its terms")
        }
        let directory = TemporaryDirectory()
        let context = try Self.makeContext(directory.file("store.sqlite"))
        XCTAssertEqual(try Self.counts(context, b), [])
        XCTAssertEqual(try Self.counts(context, a).count, 20)
    }

    // MARK: - The SQL cost model

    /// Random trees up to the nesting limit, with every kind of comparison: when the compiler
    /// writes one as SQL, SQLite must parse and run it (the cost model is conservative), and
    /// either way the fetch gives the in-memory answer.
    func testCompiledSQLAlwaysFitsSQLite() throws {
        let seed = testSeed(#function)
        print("PredicateLimitsTests.testCompiledSQLAlwaysFitsSQLite seed: \(seed) (set PERSISTKIT_SEED=\(seed) to replay)")
        var rng = SeededGenerator(seed: seed)
        let directory = TemporaryDirectory()
        let context = try Self.makeContext(directory.file("store.sqlite"))
        let entity = try XCTUnwrap(FetchPredicate<TestTask>.defaultEntity())
        let all = try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.count)]))
        let rounds = ProcessInfo.processInfo.environment["CI"] == "true" ? 60 : 160
        var asSQL = 0, deepAsSQL = 0, asFunction = 0
        for round in 0..<rounds {
            // Around the depth where SQL stops fitting SQLite's parser (deeper trees all go
            // through `pk_predicate`; `testGroupNestingAtTheLimitFetchesAndBeyondIsRefused`
            // runs one at the limit).
            let depth = Int.random(in: 1...40, using: &rng)
            // Narrow trees stay within the SQL form's 2,000 comparisons however deep they are.
            let widths = round % 2 == 0 ? [1, 1, 2, 3] : [1, 2, 3, 5, 9, 10, 70, 130]
            let node = Self.randomTree(depth: depth, isAnd: Bool.random(using: &rng), widths: widths, using: &rng)
            let predicate = FetchPredicate<TestTask>(node: node)
            do {
                let fetched = try Self.counts(context, predicate)
                let evaluator = try PredicateEvaluator(node: node, entity: entity)
                let expected = try all.filter { try evaluator.evaluate($0.storage) }.map(\.count)
                XCTAssertEqual(fetched, expected, "seed \(seed) round \(round)")
                if try PredicateSQLCompiler.compile(node, entity: entity).sql.hasPrefix(PredicateFunction.name) {
                    asFunction += 1
                } else {
                    asSQL += 1
                    if depth >= 24 { deepAsSQL += 1 }
                }
            } catch {
                XCTFail("seed \(seed) round \(round) depth \(depth): \(error)")
                return
            }
        }
        print("SQL cost model: \(asSQL) as SQL (\(deepAsSQL) at 24+ levels), \(asFunction) through \(PredicateFunction.name)")
        XCTAssertGreaterThan(deepAsSQL, 0, "seed \(seed): no deep tree was written as SQL")
        XCTAssertGreaterThan(asFunction, 0, "seed \(seed): no tree went through \(PredicateFunction.name)")
    }

    /// A tree whose deepest path has `depth` alternating groups; siblings are random leaves
    /// and, now and then, more deep groups (balanced parts cost SQLite the most).
    private static func randomTree(depth: Int, isAnd: Bool, widths: [Int], using rng: inout SeededGenerator) -> PredicateNode {
        var children: [PredicateNode] = []
        let width = widths.randomElement(using: &rng) ?? 2
        for _ in 0..<width { children.append(randomLeaf(using: &rng)) }
        if depth > 1 {
            let deepCount = Int.random(in: 0..<6, using: &rng) == 0 ? 2 : 1
            for _ in 0..<deepCount {
                let subtree = randomTree(depth: depth - 1, isAnd: !isAnd, widths: widths, using: &rng)
                children.insert(subtree, at: Int.random(in: 0...children.count, using: &rng))
            }
        }
        return isAnd ? .and(children) : .or(children)
    }

    private static func randomLeaf(using rng: inout SeededGenerator) -> PredicateNode {
        let value = Int64.random(in: 0...140, using: &rng)
        let leaf: PredicateNode
        switch Int.random(in: 0..<7, using: &rng) {
        case 0: leaf = .compare(attribute: "count", .greater, .integer(value))
        case 1: leaf = .compare(attribute: "estimate", .lessOrEqual, .real(Double(value)))
        case 2: leaf = .compare(attribute: "notes", .equal, .null)
        case 3: leaf = .inList(attribute: "estimate", [.null, .real(1), .real(Double(value))])
        case 4: leaf = .text(attribute: "name", .contains, "t\(value % 20)", .caseInsensitive)
        case 5:
            guard let regex = try? PredicateRegex(pattern: "t[0-9]+", options: []) else { return .constant(true) }
            leaf = .matches(attribute: "name", regex)
        default: leaf = .compare(attribute: "notes", .notEqual, .text("n\(value)"))
        }
        return Bool.random(using: &rng) ? .not(leaf) : leaf
    }
}

/// A result handed from the small-stack thread back to the test.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?

    func set(_ value: Result<T, any Error>) {
        lock.lock()
        result = value
        lock.unlock()
    }

    func get() -> Result<T, any Error>? {
        lock.lock()
        defer { lock.unlock() }
        return result
    }
}
