import Foundation

/// `PredicateExpressions.Range` and `ClosedRange` (`lower..<upper`, `lower...upper` written in
/// the predicate), read by `contains(_:)` for their bounds.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
protocol FoundationPredicateRangeBounds {
    var lowerExpression: any PredicateExpression { get }
    var upperExpression: any PredicateExpression { get }
    var includesUpperBound: Bool { get }
}
