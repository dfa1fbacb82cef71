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
public func && <Root: ManagedObject>(lhs: FetchPredicate<Root>, rhs: FetchPredicate<Root>) -> FetchPredicate<Root> {
    switch (lhs.node, rhs.node) {
    case (.and(let a), .and(let b)): return FetchPredicate(node: .and(a + b))
    case (.and(let a), let b): return FetchPredicate(node: .and(a + [b]))
    case (let a, .and(let b)): return FetchPredicate(node: .and([a] + b))
    case (let a, let b): return FetchPredicate(node: .and([a, b]))
    }
}

/// Objects that satisfy either predicate.
public func || <Root: ManagedObject>(lhs: FetchPredicate<Root>, rhs: FetchPredicate<Root>) -> FetchPredicate<Root> {
    switch (lhs.node, rhs.node) {
    case (.or(let a), .or(let b)): return FetchPredicate(node: .or(a + b))
    case (.or(let a), let b): return FetchPredicate(node: .or(a + [b]))
    case (let a, .or(let b)): return FetchPredicate(node: .or([a] + b))
    case (let a, let b): return FetchPredicate(node: .or([a, b]))
    }
}

/// Objects that do not satisfy the predicate.
public prefix func ! <Root: ManagedObject>(predicate: FetchPredicate<Root>) -> FetchPredicate<Root> {
    FetchPredicate(node: .not(predicate.node))
}
