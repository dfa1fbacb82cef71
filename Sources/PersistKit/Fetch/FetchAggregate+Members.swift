// The counts and aggregates as members of `FetchAggregate` itself, so that `.count(\.tags) > 2`
// compiles where a predicate is expected: the operand of `>` is a `FetchAggregate`, and a
// leading dot looks its member up there, not on `FetchPredicate`.

extension FetchAggregate where Value == Int {
    /// How many objects a to-many holds, or how many of them satisfy `predicate`, written
    /// where a predicate is expected (``FetchPredicate/count(_:where:)``).
    ///
    /// ```swift
    /// let busy = FetchRequest<Project>(predicate: .count(\.tasks) > 10)
    /// let urgent = FetchRequest<TaskItem>(predicate: .count(\.tags, where: \.name == "urgent") > 0)
    /// ```
    public static func count<Collection: RelationshipValue>(_ keyPath: KeyPath<Root, Collection>,
                                                            where predicate: FetchPredicate<Collection.Destination> = .true)
        -> FetchAggregate {
        FetchPredicate<Root>.count(keyPath, where: predicate)
    }
}

extension FetchAggregate where Value == Double {
    /// The sum of an attribute of a to-many's objects (0 when there are none).
    ///
    /// ```swift
    /// let heavy = FetchRequest<Project>(predicate: .sum(\.tasks, \.estimate) > 10)
    /// ```
    public static func sum<Collection: RelationshipValue, Number: AttributeValue & Numeric>(
        _ keyPath: KeyPath<Root, Collection>, _ attribute: KeyPath<Collection.Destination, Number>
    ) -> FetchAggregate {
        FetchPredicate<Root>.sum(keyPath, attribute)
    }

    /// The sum of an optional attribute of a to-many's objects (nil values left out).
    ///
    /// ```swift
    /// let heavy = FetchRequest<Project>(predicate: .sum(\.tasks, \.estimate) > 10)
    /// ```
    public static func sum<Collection: RelationshipValue, Number: AttributeValue & Numeric>(
        _ keyPath: KeyPath<Root, Collection>, _ attribute: KeyPath<Collection.Destination, Number?>
    ) -> FetchAggregate {
        FetchPredicate<Root>.sum(keyPath, attribute)
    }

    /// The average of an attribute of a to-many's objects (nil when there are none).
    ///
    /// ```swift
    /// let long = FetchRequest<Project>(predicate: .average(\.tasks, \.estimate) > 2)
    /// ```
    public static func average<Collection: RelationshipValue, Number: AttributeValue & Numeric>(
        _ keyPath: KeyPath<Root, Collection>, _ attribute: KeyPath<Collection.Destination, Number>
    ) -> FetchAggregate {
        FetchPredicate<Root>.average(keyPath, attribute)
    }

    /// The average of an optional attribute of a to-many's objects (nil values left out; nil
    /// when there are none).
    ///
    /// ```swift
    /// let long = FetchRequest<Project>(predicate: .average(\.tasks, \.estimate) > 2)
    /// ```
    public static func average<Collection: RelationshipValue, Number: AttributeValue & Numeric>(
        _ keyPath: KeyPath<Root, Collection>, _ attribute: KeyPath<Collection.Destination, Number?>
    ) -> FetchAggregate {
        FetchPredicate<Root>.average(keyPath, attribute)
    }
}

extension FetchAggregate {
    /// The least value of an attribute of a to-many's objects (nil when there are none).
    ///
    /// ```swift
    /// let early = FetchRequest<Project>(predicate: .minimum(\.tasks, \.due) < deadline)
    /// ```
    public static func minimum<Collection: RelationshipValue>(
        _ keyPath: KeyPath<Root, Collection>, _ attribute: KeyPath<Collection.Destination, Value>
    ) -> FetchAggregate {
        FetchPredicate<Root>.minimum(keyPath, attribute)
    }

    /// The greatest value of an attribute of a to-many's objects (nil when there are none).
    ///
    /// ```swift
    /// let late = FetchRequest<Project>(predicate: .maximum(\.tasks, \.due) > deadline)
    /// ```
    public static func maximum<Collection: RelationshipValue>(
        _ keyPath: KeyPath<Root, Collection>, _ attribute: KeyPath<Collection.Destination, Value>
    ) -> FetchAggregate {
        FetchPredicate<Root>.maximum(keyPath, attribute)
    }
}
