/// What one Foundation predicate expression translates to: a condition (for `Bool` expressions
/// whose natural form is a predicate, such as `&&` or `==`), or the values it takes.
enum FoundationPredicateTranslation {
    case predicate(PredicateNode)
    case values([FoundationPredicateOperand.Case])
}
