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
    /// `lhs + rhs`, `lhs - rhs`, `lhs * rhs`, `lhs / rhs`: arithmetic on keys and values
    /// (`budget - spent`, `due + 86400`); `position` is the operator's.
    case arithmetic(ArithmeticOperator, PredicateFormatOperand, PredicateFormatOperand, position: Int)
    /// `-operand` (a minus sign before a key or a parenthesis; `-5` is a number).
    case negated(PredicateFormatOperand, position: Int)
}
