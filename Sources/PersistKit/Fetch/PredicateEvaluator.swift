/// Evaluates a resolved predicate on an object's stored values, with SQLite's comparison rules
/// and the same text functions SQL calls, so it agrees with the SQL compiler.
///
/// It works on the normalized tree (``PredicateNode/normalized()``), as the SQL compiler does:
/// groups there nest at most ``PredicateNode/maximumNesting`` levels, so recursion stays shallow.
struct PredicateEvaluator {
    private indirect enum Compiled {
        case constant(Bool)
        case and([Compiled])
        case or([Compiled])
        case not(Compiled)
        case compare(Int, ComparisonOperator, SQLValue)
        case text(Int, TextMatchOperator, String, StringComparisonOptions)
        case inList(Int, [SQLValue])
        case matches(Int, PredicateRegex)
    }

    private let compiled: Compiled

    init(node: PredicateNode, entity: EntityDescription) throws {
        compiled = try PredicateEvaluator.compile(try node.normalized(), entity)
    }

    private static func slot(_ name: String, _ entity: EntityDescription) throws -> Int {
        guard let attribute = entity.attribute(named: name) else {
            throw PersistError(.invalidPredicate, "\(entity.name) has no attribute named \(name)",
                               entity: entity.name, attribute: name)
        }
        return attribute.index
    }

    private static func compile(_ node: PredicateNode, _ entity: EntityDescription) throws -> Compiled {
        switch node {
        case .constant(let value): return .constant(value)
        case .invalid(let error): throw error
        case .and(let nodes): return .and(try nodes.map { try compile($0, entity) })
        case .or(let nodes): return .or(try nodes.map { try compile($0, entity) })
        case .not(let inner): return .not(try compile(inner, entity))
        case .compare(let name, let op, let value): return .compare(try slot(name, entity), op, value)
        case .text(let name, let op, let pattern, let options): return .text(try slot(name, entity), op, pattern, options)
        case .inList(let name, let values): return .inList(try slot(name, entity), values)
        case .matches(let name, let regex): return .matches(try slot(name, entity), regex)
        case .variable(let variable): throw variable.unsubstitutedError
        }
    }

    func evaluate(_ storage: ContiguousArray<SQLValue>) -> Bool {
        PredicateEvaluator.evaluate(compiled, storage)
    }

    private static func evaluate(_ node: Compiled, _ storage: ContiguousArray<SQLValue>) -> Bool {
        switch node {
        case .constant(let value):
            return value
        case .and(let nodes):
            for node in nodes where !evaluate(node, storage) { return false }
            return true
        case .or(let nodes):
            for node in nodes where evaluate(node, storage) { return true }
            return false
        case .not(let inner):
            return !evaluate(inner, storage)
        case .compare(let slot, let op, let value):
            let stored = storage[slot]
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
        case .text(let slot, let op, let pattern, let options):
            guard case .text(let value) = storage[slot] else { return false }
            return TextMatcher.matches(op, value: value, pattern: pattern, options: options)
        case .inList(let slot, let values):
            let stored = storage[slot]
            return values.contains { equal(stored, $0) }
        case .matches(let slot, let regex):
            guard case .text(let value) = storage[slot] else { return false }
            return regex.matches(value)
        }
    }

    /// SQL's `IS`: NULL equals NULL, numbers compare by value, text and blobs by bytes.
    private static func equal(_ a: SQLValue, _ b: SQLValue) -> Bool {
        if a.isNull || b.isNull { return a.isNull && b.isNull }
        return SQLValue.compare(a, b) == 0
    }
}
