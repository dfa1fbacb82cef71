import Foundation

/// `PredicateExpressions.Range` and `ClosedRange` (`lower..<upper`, `lower...upper` written in
/// the predicate), read by `contains(_:)` for their bounds.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
protocol FoundationPredicateRangeBounds {
    var lowerExpression: any PredicateExpression { get }
    var upperExpression: any PredicateExpression { get }
    var includesUpperBound: Bool { get }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Range: FoundationPredicateRangeBounds {
    var lowerExpression: any PredicateExpression { lower }
    var upperExpression: any PredicateExpression { upper }
    var includesUpperBound: Bool { false }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.ClosedRange: FoundationPredicateRangeBounds {
    var lowerExpression: any PredicateExpression { lower }
    var upperExpression: any PredicateExpression { upper }
    var includesUpperBound: Bool { true }
}

/// A range value captured by a predicate (`let soon = now...later`), read by `contains(_:)` for
/// its bounds; nil is unbounded.
protocol FoundationPredicateRangeValue {
    var lowerBoundValue: Any? { get }
    var upperBoundValue: Any? { get }
    var includesUpperBound: Bool { get }
}

extension ClosedRange: FoundationPredicateRangeValue {
    var lowerBoundValue: Any? { lowerBound }
    var upperBoundValue: Any? { upperBound }
    var includesUpperBound: Bool { true }
}

extension Range: FoundationPredicateRangeValue {
    var lowerBoundValue: Any? { lowerBound }
    var upperBoundValue: Any? { upperBound }
    var includesUpperBound: Bool { false }
}

extension PartialRangeFrom: FoundationPredicateRangeValue {
    var lowerBoundValue: Any? { lowerBound }
    var upperBoundValue: Any? { nil }
    var includesUpperBound: Bool { false }
}

extension PartialRangeThrough: FoundationPredicateRangeValue {
    var lowerBoundValue: Any? { nil }
    var upperBoundValue: Any? { upperBound }
    var includesUpperBound: Bool { true }
}

extension PartialRangeUpTo: FoundationPredicateRangeValue {
    var lowerBoundValue: Any? { nil }
    var upperBoundValue: Any? { upperBound }
    var includesUpperBound: Bool { false }
}
