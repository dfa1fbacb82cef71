import Foundation

/// Lets `Any` values that are optionals be unwrapped.
protocol OptionalProtocol {
    var wrappedAny: Any? { get }
}
