import PersistKitText

/// How ``PredicateNode/values(_:_:_:)`` compares its two sides.
enum ValueComparison: Sendable {
    /// `==`, `!=`, `<`, `<=`, `>`, `>=` (``PredicateSemantics/compare(_:_:_:)``).
    case order(ComparisonOperator)
    /// `==[cd]`, `CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `LIKE` with the right side as the pattern
    /// (``PredicateSemantics/text(_:_:_:_:)``).
    case text(TextMatchOperator, StringComparisonOptions)
}
