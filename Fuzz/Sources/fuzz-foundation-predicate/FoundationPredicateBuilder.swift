import Foundation
import FuzzSupport

typealias Condition = any StandardPredicateExpression<Bool>
typealias Expr<T> = any StandardPredicateExpression<T>
typealias Item = PredicateExpressions.Variable<FZItem>

/// Builds a Foundation predicate expression over ``FZItem`` from the fuzzer's choices, as
/// `#Predicate` would have built it at compile time. `foundationComparable` turns false when
/// the tree uses something whose Foundation evaluation differs from PersistKit's by design
/// (string order and equality are by bytes in PersistKit, by Unicode in Swift) or traps in
/// Foundation (overflow, a forced unwrap of nil).
struct FoundationPredicateBuilder {
    var choices: FuzzChoices
    let item: Item
    var foundationComparable = true

    mutating func condition(_ depth: Int) -> Condition {
        switch choices.pick(depth > 0 ? 15 : 10) {
        case 0: return compare(intOperand(depth - 1), PredicateExpressions.Value(int()))
        case 1: return compare(Build.nilCoalesce(keyPath(\.ratio), real()),
                               PredicateExpressions.Value(real()))
        case 2:
            foundationComparable = false
            return compare(stringOperand(), PredicateExpressions.Value(string()))
        case 3:
            foundationComparable = false
            return choices.coin()
                ? Build.contains(stringOperand(), string()) : Build.startsWith(stringOperand(), string())
        case 4:
            switch choices.pick(3) {
            case 0:
                if choices.coin() { return equality(keyPath(\.note), PredicateExpressions.NilLiteral<String>()) }
                foundationComparable = false   // "café" == "cafe\u{301}" in Swift, not in bytes
                return equality(keyPath(\.note), PredicateExpressions.Value(Optional(string())))
            case 1: return equality(keyPath(\.ratio), choices.coin() ? PredicateExpressions.NilLiteral<Double>() : PredicateExpressions.Value(Optional(real())))
            default: return equality(keyPath(\.day), choices.coin() ? PredicateExpressions.NilLiteral<Date>() : PredicateExpressions.Value(Optional(date())))
            }
        case 5: return choices.coin() ? keyPath(\.flag) : equality(keyPath(\.flag), PredicateExpressions.Value(choices.coin()))
        case 6:
            if choices.coin() { return Build.member((0..<choices.pick(5)).map { _ in int() }, intOperand(depth - 1)) }
            foundationComparable = false
            return Build.member((0..<choices.pick(4)).map { _ in string() }, keyPath(\.name))
        case 7:
            let (a, b) = (int(), int())
            return Build.closedRange(min(a, b), max(a, b), intOperand(depth - 1))
        case 8:
            return compare(Build.nilCoalesce(keyPath(\.day), date()),
                           PredicateExpressions.Value(date()))
        case 9: return PredicateExpressions.Value(choices.coin())
        case 10: return Build.not(condition(depth - 1))
        case 11: return Build.and(condition(depth - 1), condition(depth - 1))
        case 12: return Build.or(condition(depth - 1), condition(depth - 1))
        case 13: return Build.conditional(condition(depth - 1), condition(depth - 1), condition(depth - 1))
        default:
            // x != nil && x! > c: Foundation evaluates it without unwrapping nil.
            return Build.and(Build.notEqual(keyPath(\.ratio), PredicateExpressions.NilLiteral<Double>()),
                             compare(Build.unwrap(keyPath(\.ratio)), PredicateExpressions.Value(real())))
        }
    }

    private func keyPath<T>(_ path: any KeyPath<FZItem, T> & Sendable) -> Expr<T> {
        PredicateExpressions.KeyPath(root: item, keyPath: path)
    }

    private mutating func intOperand(_ depth: Int) -> Expr<Int> {
        switch choices.pick(depth > 0 ? 5 : 2) {
        case 0: return keyPath(\.count)
        case 1: return keyPath(\.seq)
        case 2:
            foundationComparable = false   // count + c overflows at Int.max in Foundation
            return Build.arithmetic(intOperand(depth - 1), PredicateExpressions.Value(int()), choices.element([.add, .subtract, .multiply]))
        case 3: return Build.conditional(condition(depth - 1), intOperand(depth - 1), PredicateExpressions.Value(int()))
        default: return Build.negate(keyPath(\.seq))
        }
    }

    private mutating func stringOperand() -> Expr<String> {
        choices.coin() ? keyPath(\.name) : Build.nilCoalesce(keyPath(\.note), string())
    }

    private mutating func compare<T: Comparable>(_ operand: Expr<T>, _ constant: Expr<T>) -> Condition {
        let (lhs, rhs) = choices.coin() ? (operand, constant) : (constant, operand)
        switch choices.pick(6) {
        case 0: return Build.equal(lhs, rhs)
        case 1: return Build.notEqual(lhs, rhs)
        default: return Build.compare(lhs, choices.element([.lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual]), rhs)
        }
    }

    private mutating func equality<T: Equatable>(_ operand: Expr<T>, _ constant: Expr<T>) -> Condition {
        choices.coin() ? Build.equal(operand, constant) : Build.notEqual(constant, operand)
    }

    private mutating func int() -> Int {
        choices.coin() ? choices.element(FuzzDataset.counts + [3, 5, 40]) : Int(truncatingIfNeeded: choices.int64())
    }

    private mutating func real() -> Double {
        choices.element([0, -0.0, 1.5, -1.5, 0.1, 42, 1e300, -.infinity, .infinity, 2.5, Double(choices.pick(100))])
    }

    private mutating func string() -> String {
        choices.coin() ? choices.element(FuzzDataset.names) : String(decoding: (0..<choices.pick(4)).map { _ in choices.byte() }, as: UTF8.self)
    }

    private mutating func date() -> Date {
        FuzzDataset.days[1 + choices.pick(FuzzDataset.days.count - 1)] ?? Date(timeIntervalSinceReferenceDate: Double(choices.pick(200_000)))
    }
}
