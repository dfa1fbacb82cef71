import PersistKitText
import Foundation

/// Evaluates a resolved predicate on an object, with SQLite's comparison rules and the same
/// text functions SQL calls, so it agrees with the SQL compiler: each operator's answer is
/// ``PredicateSemantics``'s, where its SQL is written too.
///
/// It works on the normalized tree (``PredicateNode/normalized()``), as the SQL compiler does:
/// groups there nest at most ``PredicateNode/maximumNesting`` levels. Compiling uses an explicit
/// stack; evaluating recurses once per level, in small frames.
/// A predicate on the object's own attributes reads its storage only (the fast path); one that
/// reads through relationships follows them on the object (see
/// `PredicateEvaluator+Relationships.swift`), seeing the context's unsaved changes.
struct PredicateEvaluator {
    indirect enum Compiled {
        case constant(Bool)
        case and([Compiled])
        case or([Compiled])
        case not(Compiled)
        case compare(Int, ComparisonOperator, SQLValue)
        case text(Int, TextMatchOperator, String, StringComparisonOptions)
        case inList(Int, [SQLValue])
        /// A long `IN` list as a hash set (`matchesNull` when nil is in the list).
        case inSet(Int, Set<PredicateSemantics.EqualityKey>, matchesNull: Bool)
        case matches(Int, PredicateRegex)
        /// A value of the object rather than of its storage (a to-one's related object, the
        /// object itself), tested by a comparison on slot 0 of a one-value storage.
        case objectValue(ObjectValue, Compiled)
        /// Through to-ones (relationship indexes): the test on the object at the end, or
        /// `nilValue` when a to-one on the way is nil.
        case path([Int], Compiled, nilValue: Bool)
        /// Some object of a to-many satisfies the test.
        case any(Int, Compiled)
        /// How many objects of a to-many satisfy the test (all when nil), compared with a value.
        case count(Int, Compiled?, ComparisonOperator, SQLValue)
        /// An aggregate of a slot of a to-many's objects, compared with a value.
        case aggregate(Int, AggregateFunction, Int, ComparisonOperator, SQLValue)
        /// Two computed values compared (see `PredicateEvaluator+Values.swift`).
        case values(CompiledValue, ValueComparison, CompiledValue)
    }

    /// What ``Compiled/objectValue(_:_:)`` reads.
    enum ObjectValue {
        /// The object a to-one holds (by its reference), or nil.
        case reference(Int)
        /// The object itself.
        case identity
    }

    /// Lists longer than this are looked up in a hash set.
    private static let setThreshold = 8

    let compiled: Compiled
    /// Whether evaluation follows relationships, and so needs the object, not only its storage.
    let readsRelationships: Bool

    init(node: PredicateNode, entity: EntityDescription) throws {
        compiled = try PredicateEvaluator.compile(try node.normalized(), entity: entity)
        readsRelationships = PredicateEvaluator.needsObject(compiled)
    }

    /// An evaluator of a normalized predicate over storage laid out as `slots` says (the SQL
    /// function `pk_predicate` passes only the columns the predicate reads).
    init(normalized node: PredicateNode, slots: [String: Int]) throws {
        compiled = try PredicateEvaluator.compile(node) { leaf in
            if case .values(let lhs, let comparison, let rhs) = leaf {
                func slot(_ name: String) throws -> PredicateEvaluator.CompiledValue {
                    guard let slot = slots[name] else {
                        throw PersistError(.invalidPredicate, "The predicate reads \(name), which is not among its columns", attribute: name)
                    }
                    return .slot(slot, .none)
                }
                return .values(try PredicateEvaluator.compileValue(lhs, slot: slot), comparison,
                               try PredicateEvaluator.compileValue(rhs, slot: slot))
            }
            guard let name = PredicateEvaluator.key(of: leaf) else {
                throw PersistError(.invalidPredicate, "The predicate reads related objects, which are not among its columns")
            }
            guard let slot = slots[name] else {
                throw PersistError(.invalidPredicate, "The predicate reads \(name), which is not among its columns", attribute: name)
            }
            return try PredicateEvaluator.comparison(leaf, slot: slot)
        }
        readsRelationships = false
    }

    /// Compiles groups, handing each comparison (or relationship condition) to `leaf`, in
    /// written order. An explicit stack: groups nest up to ``PredicateNode/maximumNesting`` levels.
    static func compile(_ node: PredicateNode, leaf: (PredicateNode) throws -> Compiled) throws -> Compiled {
        enum Step { case visit(PredicateNode), and(Int), or(Int), not }
        var steps: [Step] = [.visit(node)]
        var results: [Compiled] = []
        while let step = steps.popLast() {
            switch step {
            case .visit(let node):
                switch node {
                case .constant(let value): results.append(.constant(value))
                case .invalid(let error): throw error
                case .and(let nodes):
                    steps.append(.and(nodes.count))
                    steps.append(contentsOf: nodes.reversed().lazy.map { .visit($0) })
                case .or(let nodes):
                    steps.append(.or(nodes.count))
                    steps.append(contentsOf: nodes.reversed().lazy.map { .visit($0) })
                case .not(let inner):
                    steps.append(.not)
                    steps.append(.visit(inner))
                case .variable(let variable): throw variable.unsubstitutedError
                default: results.append(try leaf(node))
                }
            case .and(let count):
                let children = Array(results.suffix(count))
                results.removeLast(count)
                results.append(.and(children))
            case .or(let count):
                let children = Array(results.suffix(count))
                results.removeLast(count)
                results.append(.or(children))
            case .not:
                if let inner = results.popLast() { results.append(.not(inner)) }
            }
        }
        return results.last ?? .constant(true)
    }

    /// The key a comparison reads (nil for a relationship condition).
    static func key(of node: PredicateNode) -> String? {
        switch node {
        case .compare(let name, _, _), .text(let name, _, _, _), .inList(let name, _), .matches(let name, _): return name
        default: return nil
        }
    }

    /// A comparison reading storage slot `slot`.
    static func comparison(_ node: PredicateNode, slot: Int) throws -> Compiled {
        switch node {
        case .compare(_, let op, let value): return .compare(slot, op, value)
        case .text(_, let op, let pattern, let options): return .text(slot, op, pattern, options)
        case .inList(_, let values):
            guard values.count > setThreshold else { return .inList(slot, values) }
            return .inSet(slot, Set(values.compactMap(PredicateSemantics.EqualityKey.init)), matchesNull: values.contains { $0.isNull })
        case .matches(_, let regex): return .matches(slot, regex)
        default: throw PersistError(.invalidPredicate, "The predicate has a part that is not a comparison")
        }
    }

    /// Whether `object` satisfies the predicate, on its current values (and, through
    /// relationships, its related objects' current values in its context).
    ///
    /// - Throws: ``PersistError`` `.invalidPredicate` when a `MATCHES` runs over its bound
    ///   (see ``PredicateRegex``).
    @inline(__always)
    func evaluate(_ object: ManagedObject) throws(PersistError) -> Bool {
        readsRelationships ? try PredicateEvaluator.evaluate(compiled, object: object)
            : try PredicateEvaluator.evaluate(compiled, object.storage)
    }

    /// Whether stored values satisfy a predicate that reads attributes only.
    func evaluate(_ storage: ContiguousArray<SQLValue>) throws(PersistError) -> Bool {
        try PredicateEvaluator.evaluate(compiled, storage)
    }

    static func evaluate(_ node: Compiled, _ storage: ContiguousArray<SQLValue>) throws(PersistError) -> Bool {
        switch node {
        case .constant(let value):
            return value
        case .and(let nodes):
            for node in nodes where try !evaluate(node, storage) { return false }
            return true
        case .or(let nodes):
            for node in nodes where try evaluate(node, storage) { return true }
            return false
        case .not(let inner):
            return try !evaluate(inner, storage)
        case .compare(let slot, let op, let value):
            return PredicateSemantics.compare(storage[slot], op, value)
        case .text(let slot, let op, let pattern, let options):
            return PredicateSemantics.text(storage[slot], op, pattern, options)
        case .inList(let slot, let values):
            return PredicateSemantics.inList(storage[slot], values)
        case .inSet(let slot, let keys, let matchesNull):
            return PredicateSemantics.inSet(storage[slot], keys, matchesNull: matchesNull)
        case .matches(let slot, let regex):
            return try PredicateSemantics.matches(storage[slot], regex)
        case .values(let lhs, let comparison, let rhs):
            return PredicateSemantics.compareValues(value(lhs, storage), comparison, value(rhs, storage))
        case .objectValue, .path, .any, .count, .aggregate:
            // Only evaluators that read relationships have these, and they evaluate objects.
            return false
        }
    }
}
