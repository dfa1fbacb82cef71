/// The arithmetic operators of predicates: `+ - * /` (unary minus is ``PredicateValue/negated(_:)``).
///
/// Their meaning is SQLite's, in SQL and in memory alike (``PredicateSemantics/arithmetic(_:_:_:)``).
enum ArithmeticOperator: UInt8, Sendable, CaseIterable {
    case add, subtract, multiply, divide

    /// The symbol, in format strings and in SQL.
    var symbol: String {
        switch self {
        case .add: return "+"
        case .subtract: return "-"
        case .multiply: return "*"
        case .divide: return "/"
        }
    }

    /// How tightly it binds: `*` and `/` before `+` and `-`.
    var precedence: Int {
        switch self {
        case .add, .subtract: return 1
        case .multiply, .divide: return 2
        }
    }
}
