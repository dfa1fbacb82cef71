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

/// One side of a comparison in a format string.
indirect enum PredicateFormatOperand: Equatable, Sendable {
    /// A key path such as `name` (dotted paths are kept whole: `project.name`, `tags.@count`).
    case key(String, position: Int)
    /// A literal or a substituted argument.
    case value(PredicateFormatValue, position: Int)
    /// `ANY tags.name` (`SOME` is `ANY`), `ALL tags.name`, `NONE tags.name`: a key (or a
    /// SUBQUERY variable's key path) through a to-many.
    case quantified(PredicateFormatQuantifier, PredicateFormatOperand, position: Int)
    /// `$t.name` inside `SUBQUERY(..., $t, ...)`: a key path from the subquery's variable.
    case variableKey(variable: String, path: String, position: Int)
    /// `SUBQUERY(collection, $variable, predicate).@count`: how many objects of the collection
    /// (a key, or a key path from an enclosing subquery's variable) satisfy the predicate.
    case subqueryCount(collection: PredicateFormatOperand, variable: String, predicate: PredicateFormatExpression,
                       position: Int)
}

/// `ANY` (or `SOME`), `ALL`, `NONE` before a key path through a to-many.
enum PredicateFormatQuantifier: String, Equatable, Sendable {
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
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
    /// `$NAME`: a variable, given a value by `withSubstitutionVariables(_:)`.
    case variable(String)
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
    case matches = "MATCHES"
    case `in` = "IN"
    /// `BETWEEN` with an argument or variable holding the two bounds (`BETWEEN {low, high}` is
    /// parsed into two comparisons instead).
    case between = "BETWEEN"
}
