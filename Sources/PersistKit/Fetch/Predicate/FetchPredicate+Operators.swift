// Operators that build predicates from plain key paths: `\.isComplete == false && \.due < date`.

/// Objects whose attribute equals `value` (nil equals nil).
public func == <Root: ManagedObject, Value: AttributeValue>(lhs: KeyPath<Root, Value>, rhs: Value) -> FetchPredicate<Root> {
    .comparison(lhs, .equal, rhs)
}

/// Objects whose attribute differs from `value` (nil differs from every non-nil value).
public func != <Root: ManagedObject, Value: AttributeValue>(lhs: KeyPath<Root, Value>, rhs: Value) -> FetchPredicate<Root> {
    .comparison(lhs, .notEqual, rhs)
}

/// Objects whose attribute is less than `value` (false when either is nil).
public func < <Root: ManagedObject, Value: AttributeValue>(lhs: KeyPath<Root, Value>, rhs: Value) -> FetchPredicate<Root> {
    .comparison(lhs, .less, rhs)
}

/// Objects whose attribute is less than or equal to `value` (false when either is nil).
public func <= <Root: ManagedObject, Value: AttributeValue>(lhs: KeyPath<Root, Value>, rhs: Value) -> FetchPredicate<Root> {
    .comparison(lhs, .lessOrEqual, rhs)
}

/// Objects whose attribute is greater than `value` (false when either is nil).
public func > <Root: ManagedObject, Value: AttributeValue>(lhs: KeyPath<Root, Value>, rhs: Value) -> FetchPredicate<Root> {
    .comparison(lhs, .greater, rhs)
}

/// Objects whose attribute is greater than or equal to `value` (false when either is nil).
public func >= <Root: ManagedObject, Value: AttributeValue>(lhs: KeyPath<Root, Value>, rhs: Value) -> FetchPredicate<Root> {
    .comparison(lhs, .greaterOrEqual, rhs)
}

/// Objects that satisfy both predicates.
///
/// Chains share their terms: `p = p && q` in a loop takes time linear in the number of terms.
public func && <Root: ManagedObject>(lhs: FetchPredicate<Root>, rhs: FetchPredicate<Root>) -> FetchPredicate<Root> {
    .combining(lhs, rhs, conjunction: true)
}

/// Objects that satisfy either predicate.
public func || <Root: ManagedObject>(lhs: FetchPredicate<Root>, rhs: FetchPredicate<Root>) -> FetchPredicate<Root> {
    .combining(lhs, rhs, conjunction: false)
}

/// Objects that do not satisfy the predicate (`!!p` is `p`).
public prefix func ! <Root: ManagedObject>(predicate: FetchPredicate<Root>) -> FetchPredicate<Root> {
    switch predicate.storage {
    case .node(.not(let inner)): return FetchPredicate(node: inner, nesting: predicate.nesting.negated)
    case .node(.constant(let value)): return FetchPredicate(node: .constant(!value), nesting: .leaf)
    default: return FetchPredicate(node: .not(predicate.node), nesting: predicate.nesting.negated)
    }
}

extension FetchPredicate {
    /// `lhs && rhs` or `lhs || rhs`: extends a chain of the same kind on either side in place
    /// (see ``PredicateChain``), or starts one. A result nested more deeply than
    /// ``PredicateNode/maximumNesting`` is an invalid predicate (fetching with it throws), so no
    /// tree ever grows deep enough to exhaust a stack.
    static func combining(_ lhs: FetchPredicate, _ rhs: FetchPredicate, conjunction: Bool) -> FetchPredicate {
        let nesting = PredicateNesting.group(conjunction ? .and : .or, [lhs.nesting, rhs.nesting])
        if nesting.depth > PredicateNode.maximumNesting {
            return FetchPredicate(node: .invalid(PredicateNode.nestingError(nesting.depth)), nesting: .leaf)
        }
        if case .chain(let view) = lhs.storage, view.isConjunction == conjunction {
            return FetchPredicate(chain: PredicateChain.appending(rhs.terms(conjunction), to: view), nesting: nesting)
        }
        if case .chain(let view) = rhs.storage, view.isConjunction == conjunction {
            return FetchPredicate(chain: PredicateChain.prepending(lhs.terms(conjunction), to: view), nesting: nesting)
        }
        let terms = lhs.terms(conjunction) + rhs.terms(conjunction)
        return FetchPredicate(chain: PredicateChain.make(isConjunction: conjunction, terms: terms), nesting: nesting)
    }

    /// What the predicate adds to a chain: its terms when it is a group of that kind, else itself.
    func terms(_ conjunction: Bool) -> [PredicateNode] {
        switch storage {
        case .chain(let view) where view.isConjunction == conjunction: return view.terms
        case .node(.and(let terms)) where conjunction: return terms
        case .node(.or(let terms)) where !conjunction: return terms
        default: return [node]
        }
    }
}
