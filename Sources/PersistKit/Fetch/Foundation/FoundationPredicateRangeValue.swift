import Foundation

/// A range value captured by a predicate (`let soon = now...later`), read by `contains(_:)` for
/// its bounds; nil is unbounded.
protocol FoundationPredicateRangeValue {
    var lowerBoundValue: Any? { get }
    var upperBoundValue: Any? { get }
    var includesUpperBound: Bool { get }
}
