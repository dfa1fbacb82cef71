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
    var valueWhenEmpty: Bool { PredicateSemantics.valueWhenEmpty(kind) }
}
