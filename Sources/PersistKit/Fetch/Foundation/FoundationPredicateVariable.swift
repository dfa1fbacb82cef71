import Foundation

/// A Foundation predicate variable, whatever its type: its key, to tell the predicate's input
/// from a closure's variable.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
protocol FoundationPredicateVariable {
    var variableKey: PredicateExpressions.VariableID { get }
}
