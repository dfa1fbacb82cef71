import Foundation

/// Lets a constant held as `Any` be unwrapped when it is an `Optional`.
protocol FoundationPredicateOptional {
    var unwrappedValue: Any? { get }
}
