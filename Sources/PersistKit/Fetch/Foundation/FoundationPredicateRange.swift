import Foundation

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
