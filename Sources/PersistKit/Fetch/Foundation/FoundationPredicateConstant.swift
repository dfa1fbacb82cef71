import Foundation

/// Constants of translated Foundation predicates: canonical form, stored form and comparison.
/// Two constants compare as the predicate evaluator compares stored values (nil equals nil,
/// ordering with nil is false, text by UTF-8 bytes), so a comparison folded at translation
/// agrees with the same comparison evaluated on an attribute.
enum FoundationPredicateConstant {
    /// The value with optionals unwrapped: nil, or a non-optional value.
    static func canonical(_ value: Any) -> Any? {
        if let optional = value as? any FoundationPredicateOptional { return optional.unwrappedValue }
        return value
    }

    /// The stored form of a constant; nil when its type is not an attribute value type.
    static func stored(_ value: Any?) throws -> SQLValue? {
        guard let value else { return .null }
        guard let attributeValue = value as? any AttributeValue else { return nil }
        do {
            return try attributeValue.makeStoredValue()
        } catch {
            throw PersistError(.invalidPredicate, "The constant \(value) cannot be encoded: \(error)")
        }
    }

    static func isNaN(_ value: Any?) -> Bool {
        guard let value, let number = value as? any BinaryFloatingPoint else { return false }
        return number.isNaN
    }

    static func typeName(_ value: Any?) -> String {
        guard let value else { return "nil" }
        return String(describing: type(of: value))
    }

    /// Compares two constants; NaN equals nothing, as in Swift.
    static func compare(_ a: Any?, _ op: ComparisonOperator, _ b: Any?) throws -> Bool {
        if isNaN(a) || isNaN(b) { return op == .notEqual }
        guard let x = try stored(a), let y = try stored(b) else {
            throw PersistError(.invalidPredicate,
                "Comparing constants of type \(typeName(a)) and \(typeName(b)) is not supported: they are not attribute values")
        }
        return storedComparison(x, op, y)
    }

    /// A comparison of stored values, as ``PredicateEvaluator`` evaluates it.
    static func storedComparison(_ x: SQLValue, _ op: ComparisonOperator, _ y: SQLValue) -> Bool {
        switch op {
        case .equal, .notEqual:
            let equal = (x.isNull || y.isNull) ? (x.isNull && y.isNull) : SQLValue.compare(x, y) == 0
            return op == .equal ? equal : !equal
        default:
            if x.isNull || y.isNull { return false }
            let order = SQLValue.compare(x, y)
            switch op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
    }

    /// The Bool a constant condition stands for (nil is false).
    static func truth(_ value: Any?) throws -> Bool {
        guard let value else { return false }
        guard let bool = value as? Bool else {
            throw PersistError(.invalidPredicate, "A \(typeName(value)) value was used as a condition")
        }
        return bool
    }

    /// The elements of a constant sequence (an array or a set captured by the predicate).
    static func elements(_ value: Any?) -> [Any?]? {
        guard let value, !(value is String), let sequence = value as? any Sequence else { return nil }
        return collect(sequence)
    }

    private static func collect(_ sequence: some Sequence) -> [Any?] {
        sequence.map { canonical($0) }
    }
}

extension Optional: FoundationPredicateOptional {
    var unwrappedValue: Any? {
        switch self {
        case .none: return nil
        case .some(let wrapped): return FoundationPredicateConstant.canonical(wrapped)
        }
    }
}
