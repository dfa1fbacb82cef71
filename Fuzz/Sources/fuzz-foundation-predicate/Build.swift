import Foundation

/// PredicateExpressions nodes from existential operands: each function opens its operands,
/// as the expression types are generic over their operands' concrete types.
enum Build {
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
    static func unwrap<T>(_ a: Expr<T?>) -> Expr<T> { openUnwrap(a) }
    private static func openUnwrap<A: StandardPredicateExpression<T?>, T>(_ a: A) -> Expr<T> {
        PredicateExpressions.ForcedUnwrap<A, T>(a)
    }
    static func nilCoalesce<T: Codable & Sendable>(_ a: Expr<T?>, _ fallback: T) -> Expr<T> { openNilCoalesce(a, fallback) }
    private static func openNilCoalesce<A: StandardPredicateExpression<T?>, T: Codable & Sendable>(_ a: A, _ fallback: T) -> Expr<T> {
        PredicateExpressions.NilCoalesce(lhs: a, rhs: PredicateExpressions.Value(fallback))
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
}
