import PersistKitText
/// A predicate resolved against an entity: attribute names and stored values.
///
/// Every comparison is two-valued (true or false, never SQL's unknown), in SQL and in memory
/// alike: `==` and `!=` treat nil as a value (`due == nil`), ordering comparisons and string
/// operators are false when either side is nil, and `NOT` flips true and false.
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

    /// The first error inside the predicate, if any.
    var error: PersistError? {
        switch self {
        case .invalid(let error): return error
        case .and(let nodes), .or(let nodes):
            for node in nodes { if let error = node.error { return error } }
            return nil
        case .not(let node): return node.error
        default: return nil
        }
    }

    /// The attribute names the predicate reads.
    var attributeNames: Set<String> {
        switch self {
        case .constant, .invalid: return []
        case .and(let nodes), .or(let nodes): return nodes.reduce(into: Set()) { $0.formUnion($1.attributeNames) }
        case .not(let node): return node.attributeNames
        case .compare(let name, _, _), .text(let name, _, _, _), .inList(let name, _): return [name]
        }
    }
}

/// Comparison operators of predicates.
enum ComparisonOperator: Sendable {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual

    var sql: String {
        switch self {
        case .equal: return "="
        case .notEqual: return "<>"
        case .less: return "<"
        case .lessOrEqual: return "<="
        case .greater: return ">"
        case .greaterOrEqual: return ">="
        }
    }

    /// The operator with its operands swapped (`5 < x` is `x > 5`).
    var flipped: ComparisonOperator {
        switch self {
        case .equal, .notEqual: return self
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        }
    }
}
