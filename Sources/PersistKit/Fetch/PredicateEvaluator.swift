import PersistKitText
import Foundation

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
        /// A long `IN` list as a hash set (`matchesNull` when nil is in the list).
        case inSet(Int, Set<EqualityKey>, matchesNull: Bool)
        case matches(Int, PredicateRegex)
    }

    /// Lists longer than this are looked up in a hash set.
    private static let setThreshold = 8

    private let compiled: Compiled

    init(node: PredicateNode, entity: EntityDescription) throws {
        compiled = try PredicateEvaluator.compile(try node.normalized()) { name in
            guard let attribute = entity.attribute(named: name) else {
                throw PersistError(.invalidPredicate, "\(entity.name) has no attribute named \(name)",
                                   entity: entity.name, attribute: name)
            }
            return attribute.index
        }
    }

    /// An evaluator of a normalized predicate over storage laid out as `slots` says (the SQL
    /// function `pk_predicate` passes only the columns the predicate reads).
    init(normalized node: PredicateNode, slots: [String: Int]) throws {
        compiled = try PredicateEvaluator.compile(node) { name in
            guard let slot = slots[name] else {
                throw PersistError(.invalidPredicate, "The predicate reads \(name), which is not among its columns", attribute: name)
            }
            return slot
        }
    }

    private static func compile(_ node: PredicateNode, _ slot: (String) throws -> Int) throws -> Compiled {
        switch node {
        case .constant(let value): return .constant(value)
        case .invalid(let error): throw error
        case .and(let nodes): return .and(try nodes.map { try compile($0, slot) })
        case .or(let nodes): return .or(try nodes.map { try compile($0, slot) })
        case .not(let inner): return .not(try compile(inner, slot))
        case .compare(let name, let op, let value): return .compare(try slot(name), op, value)
        case .text(let name, let op, let pattern, let options): return .text(try slot(name), op, pattern, options)
        case .inList(let name, let values):
            guard values.count > setThreshold else { return .inList(try slot(name), values) }
            return .inSet(try slot(name), Set(values.compactMap(EqualityKey.init)), matchesNull: values.contains { $0.isNull })
        case .matches(let name, let regex): return .matches(try slot(name), regex)
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
            return TextMatcher.matches(op, value: value, pattern: pattern, options: options.textOptions)
        case .inList(let slot, let values):
            let stored = storage[slot]
            return values.contains { equal(stored, $0) }
        case .inSet(let slot, let keys, let matchesNull):
            let stored = storage[slot]
            if stored.isNull { return matchesNull }
            return EqualityKey(stored).map(keys.contains) ?? false
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

    /// Values equal under SQL's `IS` (as ``equal(_:_:)``) have equal keys: integers and reals of
    /// the same exact value are one key, text is keyed by its bytes. NULL and NaN (equal to
    /// nothing) have none.
    enum EqualityKey: Hashable {
        case integral(Int64)
        case real(Double)
        case text([UInt8])
        case blob(Data)

        init?(_ value: SQLValue) {
            switch value {
            case .null: return nil
            case .integer(let integer): self = .integral(integer)
            case .real(let real):
                if real.isNaN { return nil }
                // Exactly an Int64 (-0.0 is 0): equal to that integer, so the same key.
                if real >= -9223372036854775808.0, real < 9223372036854775808.0, real == real.rounded(.towardZero) {
                    self = .integral(Int64(real))
                } else {
                    self = .real(real)
                }
            case .text(let text): self = .text(Array(text.utf8))
            case .blob(let data): self = .blob(data)
            }
        }
    }
}
