// Typed predicates through relationships. Key paths through to-ones work with the ordinary
// operators (`\TaskItem.project?.name == "Home"`, nil when the project is); these add related
// objects and to-manys.

/// Objects whose to-one holds `object` (`project == home`; nil: objects whose to-one is empty).
///
/// ```swift
/// let homeTasks: FetchPredicate<TaskItem> = \.project == home
/// let loose: FetchPredicate<TaskItem> = \.project == nil
/// ```
public func == <Root: ManagedObject, Destination: ManagedObject>(lhs: KeyPath<Root, Destination?>,
                                                                 rhs: Destination?) -> FetchPredicate<Root> {
    .objectComparison(lhs, .equal, rhs.map { [$0] } ?? [nil])
}

/// Objects whose to-one does not hold `object` (an empty to-one holds no object).
public func != <Root: ManagedObject, Destination: ManagedObject>(lhs: KeyPath<Root, Destination?>,
                                                                 rhs: Destination?) -> FetchPredicate<Root> {
    .objectComparison(lhs, .notEqual, rhs.map { [$0] } ?? [nil])
}

extension FetchPredicate {
    /// Objects whose to-one holds one of `objects` (`project IN %@`).
    ///
    /// ```swift
    /// let mine = FetchPredicate<TaskItem>.in(\.project, [home, work])
    /// ```
    public static func `in`<Destination: ManagedObject>(_ keyPath: KeyPath<Root, Destination?>,
                                                        _ objects: some Sequence<Destination>) -> FetchPredicate {
        objectComparison(keyPath, nil, objects.map { $0 })
    }

    /// Objects with at least one related object (in a to-many) that satisfies `predicate`
    /// (`ANY tags.name == "x"`).
    ///
    /// ```swift
    /// let urgent = FetchPredicate<TaskItem>.any(\.tags, \.name == "urgent")
    /// ```
    public static func any<Collection: RelationshipValue>(_ keyPath: KeyPath<Root, Collection>,
                                                          _ predicate: FetchPredicate<Collection.Destination>) -> FetchPredicate {
        collection(keyPath, predicate)
    }

    /// Objects whose related objects (in a to-many) all satisfy `predicate` (true when there
    /// are none), `ALL tags.name == "x"`.
    public static func all<Collection: RelationshipValue>(_ keyPath: KeyPath<Root, Collection>,
                                                          _ predicate: FetchPredicate<Collection.Destination>) -> FetchPredicate {
        !collection(keyPath, !predicate)
    }

    /// Objects none of whose related objects (in a to-many) satisfies `predicate`, `NONE tags.name == "x"`.
    public static func none<Collection: RelationshipValue>(_ keyPath: KeyPath<Root, Collection>,
                                                           _ predicate: FetchPredicate<Collection.Destination>) -> FetchPredicate {
        !collection(keyPath, predicate)
    }

    /// Objects whose to-many holds `object` (`tags CONTAINS %@`).
    ///
    /// ```swift
    /// let tagged = FetchPredicate<TaskItem>.contains(\.tags, urgent)
    /// ```
    public static func contains<Collection: RelationshipValue>(_ keyPath: KeyPath<Root, Collection>,
                                                               _ object: Collection.Destination) -> FetchPredicate {
        collection(keyPath, FetchPredicate<Collection.Destination>(node: .compare(attribute: PredicateKey.selfKey, .equal,
                                                                                  .integer(object.storageReference))))
    }

    /// `ANY keyPath` with `predicate` on the destination objects.
    private static func collection<Collection: RelationshipValue>(_ keyPath: KeyPath<Root, Collection>,
                                                                  _ predicate: FetchPredicate<Collection.Destination>) -> FetchPredicate {
        switch toManyPath(keyPath) {
        case .failure(let error): return FetchPredicate(node: .invalid(error))
        case .success(let path):
            return relationship(RelationshipPredicate(path: path, kind: .any(predicate.node)), inner: predicate.nesting)
        }
    }

    /// A relationship condition, invalid when its inner predicate nests too deeply.
    static func relationship(_ relationship: RelationshipPredicate, inner: PredicateNesting) -> FetchPredicate {
        let nesting = PredicateNesting(depth: inner.depth + 1, kind: .leaf)
        if nesting.depth > PredicateNode.maximumNesting {
            return FetchPredicate(node: .invalid(PredicateNode.nestingError(nesting.depth)), nesting: .leaf)
        }
        return FetchPredicate(node: .relationship(relationship), nesting: nesting)
    }

    /// The path of a key path naming a to-many.
    static func toManyPath<Value>(_ keyPath: KeyPath<Root, Value>) -> Result<String, PersistError> {
        switch keyTarget(keyPath, valueType: Value.self) {
        case .success(.toMany(let path, _)): return .success(path)
        case .success(.toOne(let key, _)), .success(.attribute(let key, _)), .success(.count(let key)):
            return .failure(PersistError(.invalidPredicate, "\(key) is not a to-many relationship of \(Root.self)", attribute: key))
        case .failure(let error): return .failure(error)
        }
    }

    /// A to-one (`project`, `project?.owner`) compared with objects: equal or not to one (nil
    /// for none), or one of several (`op` nil).
    static func objectComparison<Destination: ManagedObject>(_ keyPath: KeyPath<Root, Destination?>, _ op: ComparisonOperator?,
                                                             _ objects: [Destination?]) -> FetchPredicate {
        guard case .success(.toOne(let key, let relationship)) = keyTarget(keyPath, valueType: Destination?.self) else {
            return FetchPredicate(node: .invalid(PersistError(.invalidPredicate,
                "\(describe(keyPath)) does not name a to-one relationship of \(Root.self)")))
        }
        var references: [SQLValue] = []
        for object in objects {
            guard let object else {
                references.append(.null)
                continue
            }
            guard object.entity.isKind(of: relationship.destinationEntityName) else {
                return FetchPredicate(node: .invalid(PersistError(.invalidPredicate,
                    "\(key) holds \(relationship.destinationEntityName) objects, not \(object.entity.name)", attribute: key)))
            }
            references.append(.integer(object.storageReference))
        }
        guard let op, let reference = references.first else { return FetchPredicate(node: .inList(attribute: key, references)) }
        return FetchPredicate(node: .compare(attribute: key, op, reference))
    }
}
