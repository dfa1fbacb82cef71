import PersistKitText

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

    /// The text operator of `CONTAINS`, `BEGINSWITH`, `ENDSWITH` (`LIKE` for the others).
    var textMatchOperator: TextMatchOperator {
        switch self {
        case .contains: return .contains
        case .beginsWith: return .beginsWith
        case .endsWith: return .endsWith
        default: return .like
        }
    }
}
