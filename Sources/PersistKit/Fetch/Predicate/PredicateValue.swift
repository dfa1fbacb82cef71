import PersistKitText

/// One side of a comparison of two computed values (``PredicateNode/values(_:_:_:)``): a key,
/// a constant, or arithmetic on them (`completedAt > due`, `budget - spent < 0`,
/// `due < %@ + 86400`).
///
/// Keys name attributes of the entity, or of an object through to-ones (`project.deadline`, nil
/// when a to-one on the way is nil). A tree holds at most ``maximumOperations`` operators, so
/// every recursion over it is shallow.
indirect enum PredicateValue: Sendable {
    case key(String)
    case constant(SQLValue)
    case arithmetic(ArithmeticOperator, PredicateValue, PredicateValue)
    /// Unary minus: `0 - value`, as SQLite computes it.
    case negated(PredicateValue)

    /// The most operators (binary and unary) one side of a comparison may hold.
    static let maximumOperations = 64

    /// The keys read, in written order, repeated as often as read.
    var keys: [String] {
        var keys: [String] = []
        var stack = [self]
        while let value = stack.popLast() {
            switch value {
            case .key(let key): keys.append(key)
            case .constant: break
            case .arithmetic(_, let lhs, let rhs): stack.append(rhs); stack.append(lhs)
            case .negated(let inner): stack.append(inner)
            }
        }
        return keys
    }

    /// How many constants the tree holds.
    var constantCount: Int {
        var count = 0
        var stack = [self]
        while let value = stack.popLast() {
            switch value {
            case .key: break
            case .constant: count += 1
            case .arithmetic(_, let lhs, let rhs): stack.append(lhs); stack.append(rhs)
            case .negated(let inner): stack.append(inner)
            }
        }
        return count
    }

    /// How many operators the tree holds.
    var operations: Int {
        var count = 0
        var stack = [self]
        while let value = stack.popLast() {
            switch value {
            case .key, .constant: break
            case .arithmetic(_, let lhs, let rhs): count += 1; stack.append(lhs); stack.append(rhs)
            case .negated(let inner): count += 1; stack.append(inner)
            }
        }
        return count
    }

    /// The constant this tree computes when it reads no key (arithmetic folded as
    /// ``PredicateSemantics`` computes it), else nil.
    var constantValue: SQLValue? {
        switch self {
        case .key: return nil
        case .constant(let value): return value
        case .arithmetic(let op, let lhs, let rhs):
            guard let a = lhs.constantValue, let b = rhs.constantValue else { return nil }
            return PredicateSemantics.arithmetic(op, a, b)
        case .negated(let inner):
            return inner.constantValue.map(PredicateSemantics.negate)
        }
    }

    /// The same tree with each key renamed.
    func mapKeys(_ rename: (String) throws -> String) rethrows -> PredicateValue {
        switch self {
        case .key(let key): return .key(try rename(key))
        case .constant: return self
        case .arithmetic(let op, let lhs, let rhs): return .arithmetic(op, try lhs.mapKeys(rename), try rhs.mapKeys(rename))
        case .negated(let inner): return .negated(try inner.mapKeys(rename))
        }
    }
}

extension PredicateNode {
    /// `left` compared with `right`, folded where it can be (both front ends build comparisons
    /// of computed values through here): constants compared at once, a key compared with a
    /// constant as the ordinary comparison (which SQL answers through the key's index), and
    /// ``values(_:_:_:)`` otherwise.
    static func comparing(_ left: PredicateValue, _ comparison: ValueComparison, _ right: PredicateValue) -> PredicateNode {
        let a = left.constantValue, b = right.constantValue
        if let a, let b { return .constant(PredicateSemantics.compareValues(a, comparison, b)) }
        switch (left, comparison, b, a, right) {
        case (.key(let key), .order(let op), .some(let value), _, _): return .compare(attribute: key, op, value)
        case (_, .order(let op), _, .some(let value), .key(let key)): return .compare(attribute: key, op.flipped, value)
        case (.key(let key), .text(let op, let options), .some(let value), _, _):
            guard case .text(let pattern) = value else { return .constant(false) }
            return .text(attribute: key, op, pattern, options)
        default:
            return .values(left, comparison, right)
        }
    }
}
