/// Two-valued comparison of stored values, as predicates compare them everywhere: `==` and
/// `!=` treat nil as a value; ordering is false when either side is nil.
enum PredicateValues {
    static func compare(_ stored: SQLValue, _ op: ComparisonOperator, _ value: SQLValue) -> Bool {
        switch op {
        case .equal: return equal(stored, value)
        case .notEqual: return !equal(stored, value)
        default:
            if stored.isNull || value.isNull { return false }
            let order = SQLValue.compare(stored, value)
            switch op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
    }

    /// SQL's `IS`: NULL equals NULL, numbers compare by value, text and blobs by bytes.
    static func equal(_ a: SQLValue, _ b: SQLValue) -> Bool {
        if a.isNull || b.isNull { return a.isNull && b.isNull }
        return SQLValue.compare(a, b) == 0
    }
}
