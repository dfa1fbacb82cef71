/// A number computed from a to-many's objects, to compare with a value: how many there are
/// (`@count`), how many satisfy a predicate (`SUBQUERY(...).@count`), or an aggregate of one
/// of their attributes (`@sum`, `@avg`, `@min`, `@max`).
///
/// ```swift
/// let busy = FetchPredicate<Project>.count(\.tasks) > 10
/// let urgent = FetchPredicate<TaskItem>.count(\.tags, where: \.name == "urgent") > 0
/// let heavy = FetchPredicate<Project>.sum(\.tasks, \.estimate) >= 40
/// ```
///
/// When a to-many is empty, the count and the sum are 0, and the average, minimum and
/// maximum are nil (so every comparison but `!= value` and `== nil` is false).
public struct FetchAggregate<Root: ManagedObject, Value: AttributeValue>: Sendable {
    let path: Result<String, PersistError>
    let kind: Kind
    let nesting: PredicateNesting

    enum Kind: Sendable {
        case count(PredicateNode)
        case aggregate(AggregateFunction, Result<String, PersistError>)
    }

    /// The predicate comparing the number with `value`.
    func compared(_ op: ComparisonOperator, _ value: Value) -> FetchPredicate<Root> {
        let stored: SQLValue
        do {
            stored = try value.makeStoredValue()
        } catch {
            return FetchPredicate(node: .invalid(PersistError(.invalidPredicate, "The value \(value) cannot be encoded: \(error)")))
        }
        switch (path, kind) {
        case (.failure(let error), _), (_, .aggregate(_, .failure(let error))):
            return FetchPredicate(node: .invalid(error))
        case (.success(let path), .count(let inner)):
            return .relationship(RelationshipPredicate(path: path, kind: .count(inner, op, stored)), inner: nesting)
        case (.success(let path), .aggregate(let function, .success(let attribute))):
            return .relationship(RelationshipPredicate(path: path, kind: .aggregate(function, attribute: attribute, op, stored)),
                                 inner: .leaf)
        }
    }
}

extension FetchPredicate {
    /// How many objects a to-many holds, or how many of them satisfy `predicate`.
    public static func count<Collection: RelationshipValue>(_ keyPath: KeyPath<Root, Collection>,
                                                            where predicate: FetchPredicate<Collection.Destination> = .true)
        -> FetchAggregate<Root, Int> {
        FetchAggregate(path: toManyPath(keyPath), kind: .count(predicate.node), nesting: predicate.nesting)
    }

    /// The sum of an attribute of a to-many's objects (nil values left out; 0 when there are none).
    public static func sum<Collection: RelationshipValue, Number: AttributeValue & Numeric>(
        _ keyPath: KeyPath<Root, Collection>, _ attribute: KeyPath<Collection.Destination, Number>
    ) -> FetchAggregate<Root, Double> {
        aggregate(.sum, keyPath, attribute)
    }

    /// The average of an attribute of a to-many's objects (nil values left out; nil when there are none).
    public static func average<Collection: RelationshipValue, Number: AttributeValue & Numeric>(
        _ keyPath: KeyPath<Root, Collection>, _ attribute: KeyPath<Collection.Destination, Number>
    ) -> FetchAggregate<Root, Double> {
        aggregate(.avg, keyPath, attribute)
    }

    /// The sum of an optional attribute of a to-many's objects (nil values left out; 0 when there are none).
    public static func sum<Collection: RelationshipValue, Number: AttributeValue & Numeric>(
        _ keyPath: KeyPath<Root, Collection>, _ attribute: KeyPath<Collection.Destination, Number?>
    ) -> FetchAggregate<Root, Double> {
        aggregate(.sum, keyPath, attribute)
    }

    /// The average of an optional attribute of a to-many's objects (nil values left out; nil when there are none).
    public static func average<Collection: RelationshipValue, Number: AttributeValue & Numeric>(
        _ keyPath: KeyPath<Root, Collection>, _ attribute: KeyPath<Collection.Destination, Number?>
    ) -> FetchAggregate<Root, Double> {
        aggregate(.avg, keyPath, attribute)
    }

    /// The least value of an attribute of a to-many's objects (nil when there are none).
    public static func minimum<Collection: RelationshipValue, Attribute: AttributeValue>(
        _ keyPath: KeyPath<Root, Collection>, _ attribute: KeyPath<Collection.Destination, Attribute>
    ) -> FetchAggregate<Root, Attribute> {
        aggregate(.min, keyPath, attribute)
    }

    /// The greatest value of an attribute of a to-many's objects (nil when there are none).
    public static func maximum<Collection: RelationshipValue, Attribute: AttributeValue>(
        _ keyPath: KeyPath<Root, Collection>, _ attribute: KeyPath<Collection.Destination, Attribute>
    ) -> FetchAggregate<Root, Attribute> {
        aggregate(.max, keyPath, attribute)
    }

    private static func aggregate<Collection: RelationshipValue, Attribute: AttributeValue, Result: AttributeValue>(
        _ function: AggregateFunction, _ keyPath: KeyPath<Root, Collection>, _ attribute: KeyPath<Collection.Destination, Attribute>
    ) -> FetchAggregate<Root, Result> {
        let name = FetchPredicate<Collection.Destination>.attributeName(attribute).map(\.name)
        return FetchAggregate(path: toManyPath(keyPath), kind: .aggregate(function, name), nesting: .leaf)
    }
}

/// Objects whose to-many number equals `value`.
public func == <Root, Value>(lhs: FetchAggregate<Root, Value>, rhs: Value) -> FetchPredicate<Root> { lhs.compared(.equal, rhs) }
/// Objects whose to-many number differs from `value`.
public func != <Root, Value>(lhs: FetchAggregate<Root, Value>, rhs: Value) -> FetchPredicate<Root> { lhs.compared(.notEqual, rhs) }
/// Objects whose to-many number is less than `value`.
public func < <Root, Value>(lhs: FetchAggregate<Root, Value>, rhs: Value) -> FetchPredicate<Root> { lhs.compared(.less, rhs) }
/// Objects whose to-many number is at most `value`.
public func <= <Root, Value>(lhs: FetchAggregate<Root, Value>, rhs: Value) -> FetchPredicate<Root> { lhs.compared(.lessOrEqual, rhs) }
/// Objects whose to-many number is greater than `value`.
public func > <Root, Value>(lhs: FetchAggregate<Root, Value>, rhs: Value) -> FetchPredicate<Root> { lhs.compared(.greater, rhs) }
/// Objects whose to-many number is at least `value`.
public func >= <Root, Value>(lhs: FetchAggregate<Root, Value>, rhs: Value) -> FetchPredicate<Root> { lhs.compared(.greaterOrEqual, rhs) }
