/// The syntax tree of a predicate format string, before its keys are resolved against an entity.
///
/// `PredicateFormatParser` produces it; `FetchPredicate(format:)` resolves keys and values against
/// the entity's attributes.
indirect enum PredicateFormatExpression: Equatable, Sendable {
    case truePredicate
    case falsePredicate
    case and(PredicateFormatExpression, PredicateFormatExpression)
    case or(PredicateFormatExpression, PredicateFormatExpression)
    case not(PredicateFormatExpression)
    /// `lhs op[options] rhs`. `position` is the character offset of the operator in the format.
    case comparison(lhs: PredicateFormatOperand, op: PredicateFormatOperator,
                    options: StringComparisonOptions, rhs: PredicateFormatOperand, position: Int)
}

/// One side of a comparison in a format string.
enum PredicateFormatOperand: Equatable, Sendable {
    /// A key path such as `name` (dotted paths are kept whole: `project.name`).
    case key(String, position: Int)
    /// A literal or a substituted argument.
    case value(PredicateFormatValue, position: Int)
}

/// A constant in a format string.
indirect enum PredicateFormatValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    /// The `index`th argument consumed by `%@` (the argument itself is looked up later).
    case argument(index: Int)
    /// `{1, 2, 3}`: an aggregate literal, for `IN`.
    case list([PredicateFormatValue])
}

/// A comparison operator in a format string.
enum PredicateFormatOperator: String, Equatable, Sendable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case contains = "CONTAINS"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case like = "LIKE"
    case `in` = "IN"
}
