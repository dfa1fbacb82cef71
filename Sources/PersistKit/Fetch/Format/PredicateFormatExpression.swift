/// The syntax tree of a predicate format string, before its keys are resolved against an entity.
///
/// `PredicateFormatParser` produces it; `FetchPredicate(format:)` resolves keys and values against
/// the entity's attributes.
indirect enum PredicateFormatExpression: Equatable, Sendable {
    case truePredicate
    case falsePredicate
    /// Two or more terms joined by AND as written (`a AND b AND c` is one node; a parenthesized
    /// AND inside is a child node).
    case and([PredicateFormatExpression])
    /// Two or more terms joined by OR.
    case or([PredicateFormatExpression])
    case not(PredicateFormatExpression)
    /// `lhs op[options] rhs`. `position` is the character offset of the operator in the format.
    case comparison(lhs: PredicateFormatOperand, op: PredicateFormatOperator,
                    options: StringComparisonOptions, rhs: PredicateFormatOperand, position: Int)
}
