import Foundation
import PersistKitText

// Comparisons of two computed values in format strings: a key with another key
// (`completedAt > due`, `due > project.deadline`, `name CONTAINS[c] notes`) and arithmetic
// (`budget - spent < 0`, `due < %@ + 86400`), checked against the attributes' types.
extension PredicateFormatResolver {
    typealias ValueKind = PredicateValue.Kind

    /// Whether a comparison of these operands is one of two computed values: arithmetic on
    /// either side, or keys on both.
    static func comparesValues(_ lhs: PredicateFormatOperand, _ rhs: PredicateFormatOperand) -> Bool {
        func isComputed(_ operand: PredicateFormatOperand) -> Bool {
            switch operand {
            case .arithmetic, .negated: return true
            default: return false
            }
        }
        func isKey(_ operand: PredicateFormatOperand) -> Bool {
            switch operand {
            case .value: return false
            default: return true
            }
        }
        return isComputed(lhs) || isComputed(rhs) || (isKey(lhs) && isKey(rhs))
    }

    /// `lhs op rhs` where a side is computed or both are keys.
    func valueComparison(_ lhs: PredicateFormatOperand, _ op: PredicateFormatOperator, _ options: StringComparisonOptions,
                         _ rhs: PredicateFormatOperand, at position: Int) throws -> PredicateNode {
        var operations = 0
        let (left, leftKind) = try computed(lhs, &operations, at: position)
        operations = 0
        let (right, rightKind) = try computed(rhs, &operations, at: position)
        let comparison: ValueComparison
        switch op {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard leftKind.comparable(with: rightKind) else {
                throw fail("\(op.rawValue) compares \(leftKind.rawValue) with \(rightKind.rawValue)", at: position)
            }
            if options.isEmpty {
                comparison = .order(try comparisonOperator(op))
            } else {
                guard op == .equal || op == .notEqual else {
                    throw fail("[c] and [d] apply to ==, !=, CONTAINS, BEGINSWITH, ENDSWITH and LIKE, not \(op.rawValue)", at: position)
                }
                try checkText(leftKind, rightKind, "[c] and [d]", at: position)
                let node = try values(left, .text(.equal, options), right)
                return op == .equal ? node : .not(node)
            }
        case .contains, .beginsWith, .endsWith, .like:
            try checkText(leftKind, rightKind, op.rawValue, at: position)
            comparison = .text(op.textMatchOperator, options)
        case .matches:
            throw fail("MATCHES needs a constant pattern (a string or %@), not a key", at: position)
        case .in:
            throw fail("IN needs a list or a collection argument on its right, not a key (for a to-many, write ANY key == value)",
                       at: position)
        case .between:
            throw fail("BETWEEN needs constant bounds, {low, high} or %@", at: position)
        }
        return try values(left, comparison, right)
    }

    private func values(_ left: PredicateValue, _ comparison: ValueComparison, _ right: PredicateValue) throws -> PredicateNode {
        PredicateNode.comparing(left, comparison, right)
    }

    private func checkText(_ left: ValueKind, _ right: ValueKind, _ what: String, at position: Int) throws {
        guard left == .string || left == .null, right == .string || right == .null else {
            throw fail("\(what) compare strings, not \(left == .string ? right.rawValue : left.rawValue)", at: position)
        }
    }

    /// One side as a ``PredicateValue`` and its kind; `operations` counts its operators.
    private func computed(_ operand: PredicateFormatOperand, _ operations: inout Int,
                          at comparisonPosition: Int) throws -> (PredicateValue, ValueKind) {
        switch operand {
        case .value(let value, let position):
            if case .variable(let name) = value, name != variable {
                throw fail("The variable $\(name) cannot be compared with a key or computed with: give its value with %@ instead",
                           at: position)
            }
            if case .variable = value { break }
            return try constant(try swiftValue(value, at: position), at: position)
        case .arithmetic(let op, let lhs, let rhs, let position):
            operations += 1
            try checkOperations(operations, at: position)
            let (a, aKind) = try computed(lhs, &operations, at: comparisonPosition)
            let (b, bKind) = try computed(rhs, &operations, at: comparisonPosition)
            return (.arithmetic(op, a, b), try arithmeticKind(op, aKind, bKind, at: position))
        case .negated(let inner, let position):
            operations += 1
            try checkOperations(operations, at: position)
            let (value, kind) = try computed(inner, &operations, at: comparisonPosition)
            guard kind == .number || kind == .null else { throw fail("Unary minus needs a number, not \(kind.rawValue)", at: position) }
            return (.negated(value), kind)
        case .quantified(let quantifier, _, let position):
            throw fail("\(quantifier.rawValue) compares each object's value with a constant: it cannot be compared with another key or computed with",
                       at: position)
        case .subqueryCount(_, _, _, let position):
            throw fail("SUBQUERY(...).@count can only be compared with a constant", at: position)
        case .key, .variableKey:
            break
        }
        guard case .key(let key, nil, let position)? = try subject(operand) else {
            throw fail("A comparison of two keys needs a key on each side", at: comparisonPosition)
        }
        switch try analyze(key, at: position) {
        case .attribute(let path, let attribute):
            return (.key(path), ValueKind(attribute.type))
        case .toMany(let path, _, _):
            throw fail("\(key) goes through the to-many relationship \(path), which holds many values: a key compared with another key "
                       + "or computed with names one value (compare the to-many's objects with ANY, @count, an aggregate or SUBQUERY, with a constant)",
                       at: position, attribute: key)
        case .toOne, .object:
            throw fail("\(key.isEmpty ? "$\(variable ?? "")" : key) is an object, not an attribute: only attributes can be compared with another key or computed with "
                       + "(compare an object with == %@)", at: position, attribute: key)
        }
    }

    private func checkOperations(_ count: Int, at position: Int) throws {
        if count > PredicateValue.maximumOperations {
            throw fail("The arithmetic has more than \(PredicateValue.maximumOperations) operators", at: position)
        }
    }

    private func arithmeticKind(_ op: ArithmeticOperator, _ a: ValueKind, _ b: ValueKind, at position: Int) throws -> ValueKind {
        switch ValueKind.of(op, a, b) {
        case .success(let kind): return kind
        case .failure(let problem): throw fail(problem.message, at: position)
        }
    }

    /// A literal or argument as a stored value and its kind.
    private func constant(_ given: Any?, at position: Int) throws -> (PredicateValue, ValueKind) {
        guard let swift = given.flatMap(FoundationPredicateConstant.canonical), !(swift is NSNull) else { return (.constant(.null), .null) }
        if let real = swift as? any BinaryFloatingPoint {
            // SQLite keeps no NaN: it binds one as NULL.
            return (.constant(Double(real).isNaN ? .null : .real(Double(real))), .number)
        }
        if let integer = swift as? any BinaryInteger {
            guard let value = Int64(exactly: integer) else {
                throw fail("\(integer) does not fit in a 64-bit integer", at: position)
            }
            return (.constant(.integer(value)), .number)
        }
        guard let value = swift as? any AttributeValue, let stored = try? value.makeStoredValue() else {
            throw fail("\(ModelValueCoding.typeName(of: swift)) values cannot be compared with keys or computed with", at: position)
        }
        return (.constant(stored), ValueKind(type(of: value).attributeType))
    }
}

