import PersistKitText
/// A predicate resolved against an entity: attribute names and stored values.
///
/// Every comparison is two-valued (true or false, never SQL's unknown), in SQL and in memory
/// alike: `==` and `!=` treat nil as a value (`due == nil`), ordering comparisons and string
/// operators are false when either side is nil, and `NOT` flips true and false. Each
/// operator's meaning, in memory and in SQL, is defined once in ``PredicateSemantics``.
///
/// Trees may be wide (an `AND` of 100,000 terms is one node with 100,000 children) but not deep:
/// every producer keeps the nesting of AND/OR groups within ``maximumNesting`` (see
/// ``PredicateNesting``), and the code that walks a tree from outside (``error``,
/// ``attributeNames``, ``normalized()``) uses explicit stacks, so no input can exhaust the
/// thread's stack.
indirect enum PredicateNode: Sendable {
    case constant(Bool)
    case and([PredicateNode])
    case or([PredicateNode])
    case not(PredicateNode)
    case compare(attribute: String, ComparisonOperator, SQLValue)
    case text(attribute: String, TextMatchOperator, String, StringComparisonOptions)
    case inList(attribute: String, [SQLValue])
    /// A predicate that could not be built (a key path that is not an attribute): fetching
    /// with it throws this error.
    case invalid(PersistError)
    /// `MATCHES`: the whole string value matches a regular expression (nil never does).
    case matches(attribute: String, PredicateRegex)
    /// A comparison with a `$VARIABLE` not substituted yet: fetching with it throws.
    case variable(PredicateVariable)
    /// A condition on a to-many's objects (`ANY tags.name == "x"`, `tags.@count > 2`...).
    ///
    /// The comparisons above may name a key path through to-ones (`project.owner.name`), nil
    /// when a to-one on the way is nil; a path ending at a to-one compares the related object
    /// (`project == %@`), and `_pk` names the object itself (`SUBQUERY(tags, $t, $t IN %@)`).
    case relationship(RelationshipPredicate)
    /// Two computed values compared: a key with another key (`completedAt > due`,
    /// `due > project.deadline`), or arithmetic (`budget - spent < 0`). Nil and types follow
    /// the comparisons above (``PredicateSemantics/compareValues(_:_:_:)``); arithmetic is
    /// SQLite's (``PredicateSemantics/arithmetic(_:_:_:)``). A comparison of one plain key with
    /// a constant is always ``compare(attribute:_:_:)`` instead.
    case values(PredicateValue, ValueComparison, PredicateValue)
    /// A test of the object's entity (``EntityTest``): decided per entity, when a request is
    /// planned.
    case entity(EntityTest)

    /// The deepest nesting of AND/OR groups accepted, counted as ``PredicateNesting`` does (a
    /// chain of one operator is one level however long; `NOT` does not count).
    ///
    /// It bounds every recursion over a normalized predicate (the evaluator's, the SQL
    /// compiler's, the codec's), so no input can exhaust a thread's stack. SQL nested that deeply
    /// is beyond what SQLite parses (its parser stack holds 100 entries, its expression trees
    /// 1,000 levels): such a predicate runs through `pk_predicate` instead (see
    /// `PredicateSQLCompiler`), with the same answer.
    static let maximumNesting = 1_000

    /// The error for a predicate nested more deeply than ``maximumNesting``.
    static func nestingError(_ depth: Int) -> PersistError {
        PersistError(.invalidPredicate,
            "The predicate nests AND/OR groups \(depth) levels deep; at most \(maximumNesting) levels are supported "
            + "(a group inside a group of the other kind is one level; NOT does not count)")
    }

    /// The first error inside the predicate (in written order), if any: an invalid node, or an
    /// unsubstituted variable.
    var error: PersistError? {
        var stack: [PredicateNode] = [self]
        while let node = stack.popLast() {
            switch node {
            case .invalid(let error): return error
            case .variable(let variable): return variable.unsubstitutedError
            case .and(let nodes), .or(let nodes): stack.append(contentsOf: nodes.reversed())
            case .not(let inner): stack.append(inner)
            case .relationship(let relationship): if let inner = relationship.inner { stack.append(inner) }
            default: break
            }
        }
        return nil
    }

    /// Whether the predicate reads anything but its own entity's attributes: a key path through
    /// a relationship, a related object, the object itself, or a to-many.
    var readsRelationships: Bool {
        var stack: [PredicateNode] = [self]
        while let node = stack.popLast() {
            switch node {
            case .relationship: return true
            case .and(let nodes), .or(let nodes): stack.append(contentsOf: nodes)
            case .not(let inner): stack.append(inner)
            case .compare(let name, _, _), .text(let name, _, _, _), .inList(let name, _), .matches(let name, _):
                if PredicateKey.isPath(name) { return true }
            case .variable(let variable): if PredicateKey.isPath(variable.attribute) { return true }
            case .values(let lhs, _, let rhs): if (lhs.keys + rhs.keys).contains(where: PredicateKey.isPath) { return true }
            case .constant, .invalid, .entity: break
            }
        }
        return false
    }

    /// The same comparison on another key (nil for other nodes).
    func withKey(_ key: String) -> PredicateNode? {
        switch self {
        case .compare(_, let op, let value): return .compare(attribute: key, op, value)
        case .text(_, let op, let pattern, let options): return .text(attribute: key, op, pattern, options)
        case .inList(_, let values): return .inList(attribute: key, values)
        case .matches(_, let regex): return .matches(attribute: key, regex)
        default: return nil
        }
    }

    /// The attribute names the predicate reads.
    var attributeNames: Set<String> { Set(attributeNamesInOrder) }

    /// The attribute names the predicate reads, in written order, repeated as often as read.
    var attributeNamesInOrder: [String] {
        var names: [String] = []
        var stack: [PredicateNode] = [self]
        while let node = stack.popLast() {
            switch node {
            case .constant, .invalid, .relationship, .entity: break
            case .and(let nodes), .or(let nodes): stack.append(contentsOf: nodes.reversed())
            case .not(let inner): stack.append(inner)
            case .compare(let name, _, _), .text(let name, _, _, _), .inList(let name, _), .matches(let name, _):
                names.append(name)
            case .variable(let variable): names.append(variable.attribute)
            case .values(let lhs, _, let rhs): names += lhs.keys + rhs.keys
            }
        }
        return names
    }
}
