import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

private typealias Condition = any StandardPredicateExpression<Bool>
private typealias Expr<T> = any StandardPredicateExpression<T>
private typealias Row = PredicateExpressions.Variable<Sample>

/// Generated Foundation predicates, built at run time as `#Predicate` builds them, give the same
/// objects from SQL (saved data) as from memory (the same data pending), and, on data Foundation
/// can evaluate without trapping, the objects Foundation's own `evaluate` accepts.
final class FoundationPredicateEquivalenceTests: XCTestCase {
    private static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// ASCII strings, small integers: where Swift's string comparisons are by bytes, as
    /// PersistKit's are, and where Foundation's integer arithmetic does not overflow.
    private static let foundationSafePools = SamplePools(
        strings: ["a", "A", "ab", "abc", "ABC", "Abc", "", "milk", "Milk", "oat milk", "file2", "file10", "x*y",
                  " lead", "tail ", "zz", "Z"],
        ints: [-1000, -42, -7, -1, 0, 1, 2, 7, 42, 1000],
        reals: [0, -0.0, 1.5, -1.5, 42, 2.25, 0.1, 0.3, 1e10, .infinity, -.infinity],
        dates: PredicateEquivalenceTests.dates)

    private func predicate(depth: Int, safe: Bool, using rng: inout SeededGenerator) -> Foundation.Predicate<Sample> {
        Foundation.Predicate<Sample> { row in
            var generator = FoundationTreeGenerator(rng: rng, foundationSafe: safe, row: row)
            let tree = generator.condition(depth)
            rng = generator.rng
            return tree
        }
    }

    func testGeneratedFoundationPredicatesAgreeInSQLAndInMemory() throws {
        let seed = testSeed("FoundationPredicateEquivalenceTests.\(#function)")
        var rng = SeededGenerator(seed: seed)
        let directory = TemporaryDirectory()
        let (_, pending, model) = try makeSavedAndPendingSamples(in: directory, using: &rng)
        let reader = try PersistentContainer(model: model, store: .sqlite(directory.file("saved.sqlite"))).newContext()
        let pendingObjects = try pending.fetch(FetchRequest<Sample>(sortBy: [.init(key: "seq")]))

        let iterations = Self.isCI ? 400 : 1_500
        var failures = 0, nonTrivial = 0
        for iteration in 0..<iterations {
            let foundation = predicate(depth: 3, safe: false, using: &rng)
            let translated = FetchPredicate(foundation)
            if let error = translated.node.error {
                XCTFail("seed \(seed) iteration \(iteration): \(foundation) did not translate: \(error)")
                failures += 1
                if failures > 3 { return }
                continue
            }
            let request = FetchRequest<Sample>(predicate: foundation, sortBy: [.init(key: "seq")])
            let fromSQL = try reader.fetch(request).map(\.seq)
            let fromMemory = try pending.fetch(request).map(\.seq)
            let evaluated = try pendingObjects.filter { try translated.evaluate(with: $0) }.map(\.seq)
            let countSQL = try reader.count(for: request)
            if fromSQL.count > 0 && fromSQL.count < 240 { nonTrivial += 1 }
            if fromSQL != fromMemory || fromSQL != evaluated || countSQL != fromSQL.count {
                failures += 1
                if failures <= 3 {
                    XCTFail("""
                        seed \(seed) iteration \(iteration): SQL and memory disagree
                        predicate: \(foundation)
                        translated: \(translated.node)
                        SQL (\(countSQL)): \(fromSQL)
                        memory: \(fromMemory)
                        evaluate: \(evaluated)
                        """)
                }
            }
        }
        XCTAssertEqual(failures, 0, "seed \(seed): \(failures) of \(iterations) disagreed (rerun with PERSISTKIT_SEED=\(seed))")
        XCTAssertGreaterThan(nonTrivial, iterations / 5, "seed \(seed): too few predicates selected a proper subset")
    }

    func testGeneratedFoundationPredicatesAgreeWithFoundationEvaluate() throws {
        let seed = testSeed("FoundationPredicateEquivalenceTests.\(#function)")
        var rng = SeededGenerator(seed: seed)
        let directory = TemporaryDirectory()
        let context = try PersistentContainer(model: ManagedObjectModel(entities: [Sample.self]),
                                              store: .sqlite(directory.file("safe.sqlite"))).newContext()
        makeSamples(context, count: 200, using: &rng, pools: Self.foundationSafePools)
        try context.save()
        let objects = try context.fetch(FetchRequest<Sample>(sortBy: [.init(key: "seq")]))

        let iterations = Self.isCI ? 300 : 1_000
        var failures = 0, nonTrivial = 0
        for iteration in 0..<iterations {
            let foundation = predicate(depth: 3, safe: true, using: &rng)
            let translated = FetchPredicate(foundation)
            let expected = try objects.filter { try foundation.evaluate($0) }.map(\.seq)
            let fromSQL = try context.fetch(FetchRequest<Sample>(predicate: foundation, sortBy: [.init(key: "seq")])).map(\.seq)
            let evaluated = try objects.filter { try translated.evaluate(with: $0) }.map(\.seq)
            if expected.count > 0 && expected.count < objects.count { nonTrivial += 1 }
            if fromSQL != expected || evaluated != expected {
                failures += 1
                if failures <= 3 {
                    XCTFail("""
                        seed \(seed) iteration \(iteration): PersistKit and Foundation disagree
                        predicate: \(foundation)
                        translated: \(translated.node)
                        Foundation: \(expected)
                        SQL: \(fromSQL)
                        evaluate: \(evaluated)
                        """)
                }
            }
        }
        XCTAssertEqual(failures, 0, "seed \(seed): \(failures) of \(iterations) disagreed (rerun with PERSISTKIT_SEED=\(seed))")
        XCTAssertGreaterThan(nonTrivial, iterations / 5, "seed \(seed): too few predicates selected a proper subset")
    }
}

/// Random Foundation predicate trees over `Sample`, of the shapes `#Predicate` produces, each
/// comparing attributes with values, and attributes with attributes.
private struct FoundationTreeGenerator {
    var rng: SeededGenerator
    /// Only trees Foundation evaluates without throwing or trapping on `foundationSafePools`
    /// data: force unwraps guarded by `!= nil`, small integers, ASCII strings.
    let foundationSafe: Bool
    let row: Row

    private static let comparisons: [PredicateExpressions.ComparisonOperator] = [.lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual]
    private static let smallInts = [-5, -2, -1, 0, 1, 2, 3, 7, 10, 42, 100, 1000]
    private static let factors = [-3, -2, -1, 0, 1, 2, 5, 1000]
    private static let divisors = [-3, -1, 2, 7]
    private static let realFactors = [0.5, -2, 3, 0.1, 1e10, -1]
    private static let asciiPatterns = ["a", "A", "b", "ab", "", "milk", "lk", "file", "1", "x*", " ", "Z"]

    private mutating func pick(_ count: Int) -> Int { Int.random(in: 0..<count, using: &rng) }
    private mutating func coin() -> Bool { Bool.random(using: &rng) }
    private mutating func element<T>(_ values: [T]) -> T { values[pick(values.count)] }

    // MARK: Constants

    private mutating func int() -> Int {
        foundationSafe || coin() ? element(Self.smallInts) : element(PredicateEquivalenceTests.ints)
    }

    private mutating func real() -> Double {
        let pool = foundationSafe ? [0, -0.0, 1.5, -1.5, 42, 2.25, 0.1, 0.3, 1e10, .infinity] : PredicateEquivalenceTests.reals
        return coin() ? element(pool) : Double(element(Self.smallInts)) / 4
    }

    private mutating func string() -> String {
        foundationSafe ? element(Self.asciiPatterns + ["abc", "ABC", "oat milk", "file10", "zz"])
            : element(PredicateEquivalenceTests.strings + PredicateEquivalenceTests.patterns)
    }

    private mutating func pattern() -> String {
        foundationSafe ? element(Self.asciiPatterns) : element(PredicateEquivalenceTests.patterns)
    }

    private mutating func date() -> Date { element(PredicateEquivalenceTests.dates) }

    /// A constant to compare with (perhaps extreme: never an operand of arithmetic, whose
    /// overflow on constants is a translation error, as it is a trap in Swift).
    private mutating func intConstant() -> Expr<Int> {
        coin() ? smallIntConstant() : Build.value(int())
    }

    private mutating func smallIntConstant() -> Expr<Int> {
        switch pick(4) {
        case 0: return Build.arithmetic(Build.value(element(Self.smallInts)), Build.value(element(Self.smallInts)), .add)
        case 1: return Build.negate(Build.value(element(Self.smallInts)))
        default: return Build.value(element(Self.smallInts))
        }
    }

    // MARK: Operands

    mutating func intOperand(_ depth: Int) -> Expr<Int> {
        switch pick(depth > 0 ? 10 : 4) {
        case 0, 1: return Build.keyPath(row, \.int)
        case 2: return Build.coalesce(Build.keyPath(row, \.optionalInt), smallIntConstant())
        case 3: return Build.coalesce(Build.flatMapRawValue(Build.keyPath(row, \.priority)), Build.value(-1))
        case 4: return Build.arithmetic(intOperand(depth - 1), Build.value(element(Self.factors)), coin() ? .add : .multiply)
        case 5: return coin() ? Build.arithmetic(Build.value(int() / 1000), intOperand(depth - 1), .subtract)
                              : Build.negate(intOperand(depth - 1))
        case 6: return Build.intDivide(intOperand(depth - 1), element(Self.divisors))
        case 7: return Build.conditional(condition(depth - 1), intOperand(depth - 1), coin() ? intOperand(depth - 1) : smallIntConstant())
        case 8: return Build.coalesce(Build.flatMapTimes(Build.keyPath(row, \.optionalInt), element(Self.factors)), smallIntConstant())
        default:
            return foundationSafe ? Build.coalesce(Build.keyPath(row, \.optionalInt), intOperand(depth - 1))
                                  : Build.unwrap(Build.keyPath(row, \.optionalInt))
        }
    }

    mutating func realOperand(_ depth: Int) -> Expr<Double> {
        switch pick(depth > 0 ? 9 : 3) {
        case 0, 1: return Build.keyPath(row, \.real)
        case 2: return Build.coalesce(Build.keyPath(row, \.optionalReal), Build.value(real()))
        case 3: return Build.arithmetic(realOperand(depth - 1), Build.value(element(Self.realFactors)), coin() ? .add : .multiply)
        case 4: return Build.arithmetic(Build.value(element(Self.realFactors)), realOperand(depth - 1), .subtract)
        case 5: return Build.realDivide(realOperand(depth - 1), element(Self.realFactors))
        case 6: return Build.coalesce(Build.flatMapSeconds(Build.keyPath(row, \.date), since1970: coin()), Build.value(real()))
        case 7: return Build.conditional(condition(depth - 1), realOperand(depth - 1), Build.value(real()))
        default:
            return foundationSafe ? Build.negate(realOperand(depth - 1)) : Build.unwrap(Build.keyPath(row, \.optionalReal))
        }
    }

    mutating func stringOperand(_ depth: Int) -> Expr<String> {
        switch pick(depth > 0 ? 5 : 3) {
        case 0, 1: return Build.keyPath(row, \.name)
        case 2: return Build.coalesce(Build.keyPath(row, \.note), Build.value(string()))
        case 3: return Build.conditional(condition(depth - 1), stringOperand(depth - 1), Build.value(string()))
        default:
            return foundationSafe ? Build.keyPath(row, \.name) : Build.unwrap(Build.keyPath(row, \.note))
        }
    }

    // MARK: Conditions

    mutating func condition(_ depth: Int) -> Condition {
        var choice = pick(depth > 0 ? 19 : 14)
        // Two attributes (perhaps through arithmetic) compared: the shared computed-value node.
        if choice == 12 { return compare(intOperand(depth - 1), intOperand(depth - 1)) }
        if choice == 13 { return compare(realOperand(depth - 1), realOperand(depth - 1)) }
        if choice > 13 { choice -= 2 }
        switch choice {
        case 0: return compare(intOperand(depth - 1), intConstant())
        case 1: return compare(realOperand(depth - 1), Build.value(real()))
        case 2: return compare(stringOperand(depth - 1), Build.value(string()))
        case 3:
            return coin() ? Build.contains(stringOperand(depth - 1), pattern()) : Build.startsWith(stringOperand(depth - 1), pattern())
        case 4: return optionalEquality()
        case 5: return boolean()
        case 6: return membership(depth)
        case 7: return range(depth)
        case 8: return dateComparison()
        case 9: return guardedUnwrap()
        case 10: return Build.value(coin())
        case 11: return compare(Build.coalesce(Build.flatMapRawValue(Build.keyPath(row, \.priority)), Build.value(-1)), Build.value(pick(4) - 1))
        case 12, 13: return Build.not(condition(depth - 1))
        case 14: return Build.and(condition(depth - 1), condition(depth - 1))
        case 15: return Build.or(condition(depth - 1), condition(depth - 1))
        default: return Build.conditional(condition(depth - 1), condition(depth - 1), condition(depth - 1))
        }
    }

    /// `a op b` with a random operator, the constant on a random side.
    private mutating func compare<T: Comparable>(_ operand: Expr<T>, _ constant: Expr<T>) -> Condition {
        let (lhs, rhs) = coin() ? (operand, constant) : (constant, operand)
        switch pick(6) {
        case 0: return Build.equal(lhs, rhs)
        case 1: return Build.notEqual(lhs, rhs)
        default: return Build.compare(lhs, element(Self.comparisons), rhs)
        }
    }

    private mutating func equality<T: Equatable>(_ operand: Expr<T>, _ constant: Expr<T>) -> Condition {
        coin() ? Build.equal(operand, constant) : Build.notEqual(constant, operand)
    }

    private mutating func optionalEquality() -> Condition {
        switch pick(8) {
        case 0: return equality(Build.keyPath(row, \.optionalInt), coin() ? Build.nilLiteral() : Build.value(Optional(int())))
        case 1: return equality(Build.keyPath(row, \.note), coin() ? Build.nilLiteral() : Build.value(Optional(string())))
        case 2: return equality(Build.keyPath(row, \.date), coin() ? Build.nilLiteral() : Build.value(Optional(date())))
        case 3: return equality(Build.keyPath(row, \.optionalFlag), Build.value(coin() ? nil : Optional(coin())))
        case 4: return equality(Build.keyPath(row, \.priority), Build.value(coin() ? nil : Priority(rawValue: pick(3))))
        case 5: return equality(Build.keyPath(row, \.blob), Build.value(coin() ? nil : Data(repeating: UInt8(pick(4)), count: pick(3))))
        case 6: return equality(Build.keyPath(row, \.optionalReal), coin() ? Build.nilLiteral() : Build.value(Optional(real())))
        default: return equality(Build.flatMapContains(Build.keyPath(row, \.note), pattern()), Build.value(coin() ? nil : Optional(coin())))
        }
    }

    private mutating func boolean() -> Condition {
        switch pick(5) {
        case 4: return Build.keyPath(stringOperand(0), \String.isEmpty)
        case 0: return Build.keyPath(row, \.flag)
        case 1: return Build.coalesce(Build.keyPath(row, \.optionalFlag), Build.value(coin()))
        case 2: return equality(Build.keyPath(row, \.flag), Build.value(coin()))
        default: return Build.coalesce(Build.flatMapContains(Build.keyPath(row, \.note), pattern()), Build.value(coin()))
        }
    }

    private mutating func membership(_ depth: Int) -> Condition {
        switch pick(4) {
        case 0: return Build.member((0..<pick(4)).map { _ in int() }, intOperand(depth - 1))
        case 1: return Build.member((0..<pick(4)).map { _ in coin() ? nil : Optional(int()) }, Build.keyPath(row, \.optionalInt))
        case 2: return Build.member((0..<pick(4)).map { _ in string() }, stringOperand(depth - 1))
        default: return Build.member((0..<pick(4)).map { _ in Priority(rawValue: pick(4)) }, Build.keyPath(row, \.priority))
        }
    }

    private mutating func range(_ depth: Int) -> Condition {
        switch pick(5) {
        case 0:
            let a = int(), b = int()
            return Build.closedRange(min(a, b), max(a, b), intOperand(depth - 1))
        case 1:
            let a = real(), b = real()
            return Build.halfOpenRange(min(a, b), max(a, b), realOperand(depth - 1))
        case 2:
            let a = date(), b = date()
            return Build.rangeValue(min(a, b)...max(a, b), Build.coalesce(Build.keyPath(row, \.date), Build.value(date())))
        case 3: return Build.rangeValue(int()..., intOperand(depth - 1))
        default: return Build.rangeValue(..<real(), realOperand(depth - 1))
        }
    }

    private mutating func dateComparison() -> Condition {
        if coin() { return compare(Build.coalesce(Build.keyPath(row, \.date), Build.value(date())), Build.value(date())) }
        let unwrapped = compare(Build.unwrap(Build.keyPath(row, \.date)), Build.value(date()))
        return foundationSafe || coin() ? Build.and(Build.notEqual(Build.keyPath(row, \.date), Build.nilLiteral()), unwrapped) : unwrapped
    }

    /// `x != nil && x! op c`, which Foundation evaluates without unwrapping nil.
    private mutating func guardedUnwrap() -> Condition {
        if coin() {
            return Build.and(Build.notEqual(Build.keyPath(row, \.optionalInt), Build.nilLiteral()),
                             compare(Build.unwrap(Build.keyPath(row, \.optionalInt)), intConstant()))
        }
        let seconds = Build.keyPath(Build.unwrap(Build.keyPath(row, \.date)), coin() ? \Date.timeIntervalSinceReferenceDate : \.timeIntervalSince1970)
        return Build.and(Build.notEqual(Build.keyPath(row, \.date), Build.nilLiteral()),
                         compare(Build.arithmetic(seconds, Build.value(element(Self.realFactors)), .add), Build.value(real())))
    }
}

/// PredicateExpressions trees built from existentials: each builder opens its operands, since
/// the expression types are generic over their operands' concrete types.
private enum Build {
    static func value<T: Codable & Sendable>(_ value: T) -> Expr<T> { PredicateExpressions.Value(value) }
    static func nilLiteral<T>() -> Expr<T?> { PredicateExpressions.NilLiteral<T>() }

    static func keyPath<T>(_ row: Row, _ keyPath: any KeyPath<Sample, T> & Sendable) -> Expr<T> {
        PredicateExpressions.KeyPath(root: row, keyPath: keyPath)
    }
    static func keyPath<T, U>(_ root: Expr<T>, _ keyPath: any KeyPath<T, U> & Sendable) -> Expr<U> { openKeyPath(root, keyPath) }
    private static func openKeyPath<R: StandardPredicateExpression<T>, T, U>(_ root: R, _ keyPath: any KeyPath<T, U> & Sendable) -> Expr<U> {
        PredicateExpressions.KeyPath(root: root, keyPath: keyPath)
    }

    static func and(_ a: Condition, _ b: Condition) -> Condition { openAnd(a, b) }
    private static func openAnd<A: StandardPredicateExpression<Bool>, B: StandardPredicateExpression<Bool>>(_ a: A, _ b: B) -> Condition {
        PredicateExpressions.Conjunction(lhs: a, rhs: b)
    }
    static func or(_ a: Condition, _ b: Condition) -> Condition { openOr(a, b) }
    private static func openOr<A: StandardPredicateExpression<Bool>, B: StandardPredicateExpression<Bool>>(_ a: A, _ b: B) -> Condition {
        PredicateExpressions.Disjunction(lhs: a, rhs: b)
    }
    static func not(_ a: Condition) -> Condition { openNot(a) }
    private static func openNot<A: StandardPredicateExpression<Bool>>(_ a: A) -> Condition { PredicateExpressions.Negation(a) }

    static func equal<T: Equatable>(_ a: Expr<T>, _ b: Expr<T>) -> Condition { openEqual(a, b) }
    private static func openEqual<A: StandardPredicateExpression<T>, B: StandardPredicateExpression<T>, T: Equatable>(_ a: A, _ b: B) -> Condition {
        PredicateExpressions.Equal(lhs: a, rhs: b)
    }
    static func notEqual<T: Equatable>(_ a: Expr<T>, _ b: Expr<T>) -> Condition { openNotEqual(a, b) }
    private static func openNotEqual<A: StandardPredicateExpression<T>, B: StandardPredicateExpression<T>, T: Equatable>(_ a: A, _ b: B) -> Condition {
        PredicateExpressions.NotEqual(lhs: a, rhs: b)
    }
    static func compare<T: Comparable>(_ a: Expr<T>, _ op: PredicateExpressions.ComparisonOperator, _ b: Expr<T>) -> Condition {
        openCompare(a, op, b)
    }
    private static func openCompare<A: StandardPredicateExpression<T>, B: StandardPredicateExpression<T>, T: Comparable>(
        _ a: A, _ op: PredicateExpressions.ComparisonOperator, _ b: B) -> Condition {
        PredicateExpressions.Comparison(lhs: a, rhs: b, op: op)
    }

    static func arithmetic<T: Numeric>(_ a: Expr<T>, _ b: Expr<T>, _ op: PredicateExpressions.ArithmeticOperator) -> Expr<T> {
        openArithmetic(a, b, op)
    }
    private static func openArithmetic<A: StandardPredicateExpression<T>, B: StandardPredicateExpression<T>, T: Numeric>(
        _ a: A, _ b: B, _ op: PredicateExpressions.ArithmeticOperator) -> Expr<T> {
        PredicateExpressions.Arithmetic(lhs: a, rhs: b, op: op)
    }
    static func negate<T: SignedNumeric>(_ a: Expr<T>) -> Expr<T> { openNegate(a) }
    private static func openNegate<A: StandardPredicateExpression<T>, T: SignedNumeric>(_ a: A) -> Expr<T> {
        PredicateExpressions.UnaryMinus(a)
    }
    static func intDivide(_ a: Expr<Int>, _ divisor: Int) -> Expr<Int> { openIntDivide(a, divisor) }
    private static func openIntDivide<A: StandardPredicateExpression<Int>>(_ a: A, _ divisor: Int) -> Expr<Int> {
        PredicateExpressions.IntDivision(lhs: a, rhs: PredicateExpressions.Value(divisor))
    }
    static func realDivide(_ a: Expr<Double>, _ divisor: Double) -> Expr<Double> { openRealDivide(a, divisor) }
    private static func openRealDivide<A: StandardPredicateExpression<Double>>(_ a: A, _ divisor: Double) -> Expr<Double> {
        PredicateExpressions.FloatDivision(lhs: a, rhs: PredicateExpressions.Value(divisor))
    }

    static func coalesce<T>(_ a: Expr<T?>, _ b: Expr<T>) -> Expr<T> { openCoalesce(a, b) }
    private static func openCoalesce<A: StandardPredicateExpression<T?>, B: StandardPredicateExpression<T>, T>(_ a: A, _ b: B) -> Expr<T> {
        PredicateExpressions.NilCoalesce(lhs: a, rhs: b)
    }
    static func unwrap<T>(_ a: Expr<T?>) -> Expr<T> { openUnwrap(a) }
    private static func openUnwrap<A: StandardPredicateExpression<T?>, T>(_ a: A) -> Expr<T> {
        PredicateExpressions.ForcedUnwrap<A, T>(a)
    }
    static func conditional<T>(_ test: Condition, _ a: Expr<T>, _ b: Expr<T>) -> Expr<T> { openConditional(test, a, b) }
    private static func openConditional<C: StandardPredicateExpression<Bool>, A: StandardPredicateExpression<T>,
                                        B: StandardPredicateExpression<T>, T>(_ test: C, _ a: A, _ b: B) -> Expr<T> {
        PredicateExpressions.Conditional(test: test, trueBranch: a, falseBranch: b)
    }

    static func contains(_ base: Expr<String>, _ pattern: String) -> Condition { openContains(base, pattern) }
    private static func openContains<A: StandardPredicateExpression<String>>(_ base: A, _ pattern: String) -> Condition {
        PredicateExpressions.CollectionContainsCollection(base: base, other: PredicateExpressions.Value(pattern))
    }
    static func startsWith(_ base: Expr<String>, _ prefix: String) -> Condition { openStartsWith(base, prefix) }
    private static func openStartsWith<A: StandardPredicateExpression<String>>(_ base: A, _ prefix: String) -> Condition {
        PredicateExpressions.SequenceStartsWith(base: base, prefix: PredicateExpressions.Value(prefix))
    }
    static func member<T: Equatable & Codable & Sendable>(_ values: [T], _ element: Expr<T>) -> Condition { openMember(values, element) }
    private static func openMember<E: StandardPredicateExpression<T>, T: Equatable & Codable & Sendable>(_ values: [T], _ element: E) -> Condition {
        PredicateExpressions.SequenceContains(sequence: PredicateExpressions.Value(values), element: element)
    }
    static func closedRange<T: Comparable & Codable & Sendable>(_ lower: T, _ upper: T, _ element: Expr<T>) -> Condition {
        openClosedRange(lower, upper, element)
    }
    private static func openClosedRange<E: StandardPredicateExpression<T>, T: Comparable & Codable & Sendable>(
        _ lower: T, _ upper: T, _ element: E) -> Condition {
        let range = PredicateExpressions.ClosedRange(lower: PredicateExpressions.Value(lower), upper: PredicateExpressions.Value(upper))
        return PredicateExpressions.RangeExpressionContains(range: range, element: element)
    }
    static func halfOpenRange<T: Comparable & Codable & Sendable>(_ lower: T, _ upper: T, _ element: Expr<T>) -> Condition {
        openHalfOpenRange(lower, upper, element)
    }
    private static func openHalfOpenRange<E: StandardPredicateExpression<T>, T: Comparable & Codable & Sendable>(
        _ lower: T, _ upper: T, _ element: E) -> Condition {
        let range = PredicateExpressions.Range(lower: PredicateExpressions.Value(lower), upper: PredicateExpressions.Value(upper))
        return PredicateExpressions.RangeExpressionContains(range: range, element: element)
    }
    static func rangeValue<R: RangeExpression & Codable & Sendable>(_ range: R, _ element: Expr<R.Bound>) -> Condition {
        openRangeValue(range, element)
    }
    private static func openRangeValue<R: RangeExpression & Codable & Sendable, E: StandardPredicateExpression<R.Bound>>(
        _ range: R, _ element: E) -> Condition {
        PredicateExpressions.RangeExpressionContains(range: PredicateExpressions.Value(range), element: element)
    }

    // `flatMap` with a fixed transform each: the transform's type must be known statically.

    static func flatMapTimes(_ wrapped: Expr<Int?>, _ factor: Int) -> Expr<Int?> { openFlatMapTimes(wrapped, factor) }
    private static func openFlatMapTimes<W: StandardPredicateExpression<Int?>>(_ wrapped: W, _ factor: Int) -> Expr<Int?> {
        typealias Transform = PredicateExpressions.Arithmetic<PredicateExpressions.Variable<Int>, PredicateExpressions.Value<Int>>
        let mapped: PredicateExpressions.OptionalFlatMap<W, Int, Transform, Int> = .init(wrapped) { value in
            Transform(lhs: value, rhs: PredicateExpressions.Value(factor), op: .multiply)
        }
        return mapped
    }
    static func flatMapContains(_ wrapped: Expr<String?>, _ pattern: String) -> Expr<Bool?> { openFlatMapContains(wrapped, pattern) }
    private static func openFlatMapContains<W: StandardPredicateExpression<String?>>(_ wrapped: W, _ pattern: String) -> Expr<Bool?> {
        typealias Transform = PredicateExpressions.CollectionContainsCollection<PredicateExpressions.Variable<String>, PredicateExpressions.Value<String>>
        let mapped: PredicateExpressions.OptionalFlatMap<W, String, Transform, Bool> = .init(wrapped) { value in
            Transform(base: value, other: PredicateExpressions.Value(pattern))
        }
        return mapped
    }
    static func flatMapRawValue(_ wrapped: Expr<Priority?>) -> Expr<Int?> { openFlatMapRawValue(wrapped) }
    private static func openFlatMapRawValue<W: StandardPredicateExpression<Priority?>>(_ wrapped: W) -> Expr<Int?> {
        typealias Transform = PredicateExpressions.KeyPath<PredicateExpressions.Variable<Priority>, Int>
        let mapped: PredicateExpressions.OptionalFlatMap<W, Priority, Transform, Int> = .init(wrapped) { value in
            Transform(root: value, keyPath: \.rawValue)
        }
        return mapped
    }
    static func flatMapSeconds(_ wrapped: Expr<Date?>, since1970: Bool) -> Expr<Double?> { openFlatMapSeconds(wrapped, since1970) }
    private static func openFlatMapSeconds<W: StandardPredicateExpression<Date?>>(_ wrapped: W, _ since1970: Bool) -> Expr<Double?> {
        typealias Transform = PredicateExpressions.KeyPath<PredicateExpressions.Variable<Date>, Double>
        let mapped: PredicateExpressions.OptionalFlatMap<W, Date, Transform, Double> = .init(wrapped) { value in
            Transform(root: value, keyPath: since1970 ? \.timeIntervalSince1970 : \.timeIntervalSinceReferenceDate)
        }
        return mapped
    }
}
