/// A condition on the objects a to-many relationship holds, reached through zero or more
/// to-ones first: `ANY tags.name == "x"`, `tags.@count > 2`, `tasks.@sum.rank < 10`,
/// `SUBQUERY(tags, $t, $t.name BEGINSWITH "x").@count > 0`, `ANY project.tasks.done == YES`.
///
/// `ALL` and `NONE` are `ANY` negated (`ALL tags.x == 1` is `NOT ANY tags.x != 1`), exact in
/// two-valued logic. When a to-one on the way is nil, the collection is empty: `ANY` is false,
/// `@count` and `@sum` are 0, `@avg`, `@min` and `@max` are nil.
struct RelationshipPredicate: Sendable {
    enum Kind: Sendable {
        /// Some object of the collection satisfies the predicate (on the destination entity).
        case any(PredicateNode)
        /// How many objects of the collection satisfy the predicate, compared with a value
        /// (`@count` is this with the predicate true).
        case count(PredicateNode, ComparisonOperator, SQLValue)
        /// An aggregate of an attribute of the collection's objects, compared with a value.
        case aggregate(AggregateFunction, attribute: String, ComparisonOperator, SQLValue)
    }

    /// Relationship names from the predicate's entity: to-ones, then the to-many (last).
    let path: String
    let kind: Kind

    /// The predicate on the destination entity, if the kind has one.
    var inner: PredicateNode? {
        switch kind {
        case .any(let node), .count(let node, _, _): return node
        case .aggregate: return nil
        }
    }

    /// The same condition with another inner predicate.
    func replacingInner(_ node: PredicateNode) -> RelationshipPredicate {
        switch kind {
        case .any: return RelationshipPredicate(path: path, kind: .any(node))
        case .count(_, let op, let value): return RelationshipPredicate(path: path, kind: .count(node, op, value))
        case .aggregate: return self
        }
    }

    /// What the condition is on an empty collection (or when a to-one on the way is nil).
    var valueWhenEmpty: Bool {
        switch kind {
        case .any: return false
        case .count(_, let op, let value): return PredicateValues.compare(.integer(0), op, value)
        case .aggregate(let function, _, let op, let value):
            return PredicateValues.compare(function.valueWhenEmpty, op, value)
        }
    }
}

/// `@sum`, `@avg`, `@min`, `@max` over a to-many's attribute. Nil values are left out (as SQL's
/// aggregates do); `@sum` of nothing is 0, the others are nil. `@sum` and `@avg` are computed as
/// reals (SQLite's `total()` and `avg()`), so an integer sum is exact up to 2^53.
enum AggregateFunction: String, Sendable, CaseIterable {
    case sum, avg, min, max

    var valueWhenEmpty: SQLValue { self == .sum ? .real(0) : .null }

    /// The aggregate of `values`, as SQLite computes it.
    func apply(_ values: [SQLValue]) -> SQLValue {
        switch self {
        case .sum, .avg:
            var total = 0.0
            var count = 0
            for value in values {
                switch value {
                case .integer(let integer): total += Double(integer)
                case .real(let real): total += real
                case .null: continue
                case .text, .blob: continue
                }
                count += 1
            }
            // SQLite hands back NaN (inf - inf) as NULL.
            if self == .sum { return total.isNaN ? .null : .real(total) }
            let average = total / Double(count)
            return count == 0 || average.isNaN ? .null : .real(average)
        case .min, .max:
            var best: SQLValue = .null
            for value in values where !value.isNull {
                if best.isNull { best = value; continue }
                let order = SQLValue.compare(value, best)
                if self == .min ? order < 0 : order > 0 { best = value }
            }
            return best
        }
    }
}

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
