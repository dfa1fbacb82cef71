/// Compiles a resolved predicate to an SQL `WHERE` expression with bound values.
///
/// Each comparison compiles to an expression that is never NULL, so SQL's three-valued logic
/// collapses to the two-valued logic the in-memory evaluator uses. Both start from the same
/// normalized tree (``PredicateNode/normalized()``), and each operator's SQL is written by
/// ``PredicateSemantics``, beside its in-memory answer: this compiler arranges the pieces
/// (groups, subqueries, SQLite's limits).
///
/// The SQL is shaped to fit SQLite's own limits:
/// - **Parser stack.** SQLite's LALR parser (before 3.46) has a fixed stack of 100 entries. An
///   operand that follows `AND`/`OR` inside parentheses costs three entries, the first operand of
///   a parenthesized group one. So the operand that needs the most stack goes first, and
///   nesting that follows the deepest branch costs one entry per level.
/// - **Expression depth.** SQLite parses `a AND b AND c` left-deep and refuses trees deeper than
///   1000 (`SQLITE_MAX_EXPR_DEPTH`). Groups wider than ``chunkWidth`` are split into
///   parenthesized chunks, recursively.
/// - **Parameters.** Equal values share one numbered parameter (`?7`).
///
/// Each fragment's cost in parser stack entries and tree height is tracked (conservatively).
/// A predicate beyond those budgets, or with more than ``maximumSQLComparisons`` comparisons or
/// ``maximumSQLValues`` values (SQLite prepares statements in time quadratic in the number of
/// distinct constants: 100,000 take about a minute), compiles instead to one call of the SQL
/// function `pk_predicate` (``PredicateFunction``), which runs the in-memory evaluator on the
/// columns the predicate reads, with the predicate bound as one blob. Such a fetch scans the
/// table, but any size and shape of predicate works, with exactly the in-memory answer.
struct PredicateSQLCompiler {
    struct Compiled {
        var sql: String
        var bindings: [SQLValue]
    }

    /// Groups wider than this are split into parenthesized chunks.
    static let chunkWidth = 64
    /// A group whose non-leading operands are more than this many is written `(first OP (rest))`,
    /// so the leading operand stays near the top of the expression tree.
    static let inlineOperandLimit = 8
    /// Parser stack entries the WHERE expression may use (100 in SQLite, less what the
    /// surrounding `SELECT ... WHERE` takes, less a margin). Calibrated on SQLite 3.40.1: SQL
    /// this model puts at 96 or less parses, at 98 or more overflows. Every level of groups
    /// costs at least one entry, so a predicate nested more deeply than this is never written
    /// as SQL (nor recursed over for it).
    static let parserStackBudget = 88
    /// Expression tree height the WHERE expression may reach (1000 in SQLite, less a margin for
    /// the conditions a fetch adds around it).
    static let expressionHeightBudget = 990
    /// Predicates with more comparisons than this run through `pk_predicate`.
    static let maximumSQLComparisons = 2_000
    /// Predicates with more values than this (or than SQLite may bind) run through `pk_predicate`.
    static let maximumSQLValues = min(5_000, SQLiteLimits.current.variables - 1)

    /// One compiled piece: its SQL and what parsing it costs SQLite.
    typealias Fragment = SQLFragment

    /// The table the SQL being written reads: an entity, and the alias its columns are
    /// qualified with (none in the fetch's own `WHERE`; `_t1`, `_d`... inside subqueries).
    struct Scope {
        let entity: EntityDescription
        let qualifier: String?
    }

    /// Where column names resolve now (subqueries for relationships change it while they are written).
    var scope: Scope
    /// Writing a predicate too large for plain SQL that reads through relationships: parts
    /// without relationships become `pk_predicate` calls (see `PredicateSQLCompiler+Large.swift`).
    var isLarge = false
    var entity: EntityDescription { scope.entity }
    private(set) var bindings: [SQLValue] = []
    /// Scalar subqueries written for keys through to-ones, numbering their tables' aliases.
    var valueSubqueries = 0
    private var parameterByValue: [BindingKey: Int] = [:]

    init(entity: EntityDescription) {
        scope = Scope(entity: entity, qualifier: nil)
    }

    static func compile(_ node: PredicateNode, entity: EntityDescription) throws -> Compiled {
        let normalized = try node.normalized()
        let size = Self.size(of: normalized)
        let fitsParser = PredicateNesting.of(normalized, limit: parserStackBudget).depth <= parserStackBudget
        if fitsParser && size.comparisons <= maximumSQLComparisons && size.values <= maximumSQLValues {
            var compiler = PredicateSQLCompiler(entity: entity)
            let fragment = try compiler.emit(normalized)
            if fragment.stack <= parserStackBudget && fragment.height <= expressionHeightBudget {
                return Compiled(sql: fragment.sql, bindings: compiler.bindings)
            }
        }
        if normalized.readsRelationships {
            // Related objects are not columns `pk_predicate` could be handed: only the parts
            // that read none go through it.
            return try compileLarge(normalized, entity: entity, size: size)
        }
        return try functionCall(normalized, entity: entity)
    }

    /// How many comparisons and values a normalized tree holds (an explicit stack: trees nest
    /// up to ``PredicateNode/maximumNesting`` levels).
    static func size(of node: PredicateNode) -> (comparisons: Int, values: Int) {
        var comparisons = 0, values = 0
        var stack = [node]
        while let node = stack.popLast() {
            switch node {
            case .and(let children), .or(let children): stack.append(contentsOf: children)
            case .not(let inner): stack.append(inner)
            case .constant: break
            case .inList(_, let list):
                comparisons += 1
                values += PredicateSemantics.writesAsJSONList(list) ? 1 : list.count
            case .relationship(let relationship):
                comparisons += 1
                values += 1
                if let inner = relationship.inner { stack.append(inner) }
            case .values(let lhs, _, let rhs):
                comparisons += 1
                values += max(1, lhs.constantCount + rhs.constantCount)
            default:
                comparisons += 1
                values += 1
            }
        }
        return (comparisons, values)
    }

    /// `pk_predicate(?1, "a", "b", ...)`: the encoded predicate, then the columns it reads.
    private static func functionCall(_ node: PredicateNode, entity: EntityDescription) throws -> Compiled {
        let node = node.decidingEntityTests(for: entity)
        var names: [String] = []
        var seen: Set<String> = []
        for name in node.attributeNamesInOrder where seen.insert(name).inserted {
            // A to-one's own name is its foreign-key column: `project IN %@` with many objects.
            guard entity.attribute(named: name) != nil || entity.relationship(named: name)?.kind == .toOne else {
                throw PersistError(.invalidPredicate, "\(entity.name) has no attribute named \(name)",
                                   entity: entity.name, attribute: name)
            }
            names.append(name)
        }
        let limit = SQLiteLimits.current.functionArguments - 1
        guard names.count <= limit else {
            throw PersistError(.invalidPredicate,
                "The predicate is too large for SQL and reads \(names.count) attributes; "
                + "SQLite passes at most \(limit) to a function: split it into several fetches", entity: entity.name)
        }
        let columns = names.map { ", " + SQLName.quote($0) }.joined()
        let blob = try PredicateCodec.encode(node, attributes: names)
        return Compiled(sql: "\(PredicateFunction.name)(?1\(columns))", bindings: [.blob(blob)])
    }

    // MARK: - Groups

    /// Emits a normalized node. Recursion follows group nesting, at most
    /// ``PredicateNode/maximumNesting`` levels.
    mutating func emit(_ node: PredicateNode) throws -> Fragment {
        switch node {
        case .constant(let value):
            return Fragment(sql: value ? "1" : "0", stack: 1, height: 1)
        case .entity(let test):
            // The rows read are of one entity (see `EntityTest`).
            return Fragment(sql: test.passes(entity) ? "1" : "0", stack: 1, height: 1)
        case .and(let children):
            return try group(children, separator: " AND ")
        case .or(let children):
            return try group(children, separator: " OR ")
        case .not(let inner):
            let fragment = try emit(inner)
            return Fragment(sql: "(NOT " + fragment.sql + ")", stack: fragment.stack + 2, height: fragment.height + 1)
        default:
            return try comparison(node)
        }
    }

    private mutating func group(_ children: [PredicateNode], separator: String) throws -> Fragment {
        var operands: [Fragment] = []
        operands.reserveCapacity(children.count)
        for child in children { operands.append(try emit(child)) }
        guard let leading = Self.mostDemanding(operands) else {
            return Fragment(sql: separator == " AND " ? "1" : "0", stack: 1, height: 1)
        }
        if operands.count - 1 <= Self.inlineOperandLimit {
            return Self.chain(operands, separator)
        }
        let first = operands.remove(at: leading)
        return Self.chain([first, Self.chunked(operands, separator)], separator)
    }

    /// The index of the operand needing the most parser stack (the tallest among those).
    private static func mostDemanding(_ operands: [Fragment]) -> Int? {
        // `max(by:)` keeps the first of equals, so operands stay in written order when they can.
        operands.indices.max { (operands[$0].stack, operands[$0].height) < (operands[$1].stack, operands[$1].height) }
    }

    /// `(a OP b OP c ...)` with the most demanding operand first and the tallest of the others
    /// last, where each sits highest in SQLite's left-deep tree.
    private static func chain(_ operands: [Fragment], _ separator: String) -> Fragment {
        guard operands.count > 1, let leading = mostDemanding(operands) else {
            return operands.first ?? Fragment(sql: "1", stack: 1, height: 1)
        }
        var rest = operands
        let first = rest.remove(at: leading)
        rest.sort { $0.height < $1.height }
        let count = operands.count
        var stack = 1 + first.stack
        var height = first.height + count - 1
        var sql = "(" + first.sql
        for (offset, operand) in rest.enumerated() {
            stack = max(stack, 3 + operand.stack)
            height = max(height, operand.height + count - 1 - offset)
            sql += separator
            sql += operand.sql
        }
        sql += ")"
        return Fragment(sql: sql, stack: stack, height: height)
    }

    /// A chain of any width, as chains of at most ``chunkWidth`` operands nested in chains.
    private static func chunked(_ operands: [Fragment], _ separator: String) -> Fragment {
        var level = operands
        while level.count > chunkWidth {
            level = stride(from: 0, to: level.count, by: chunkWidth).map {
                chain(Array(level[$0..<min($0 + chunkWidth, level.count)]), separator)
            }
        }
        return chain(level, separator)
    }

    // MARK: - Values

    /// A numbered parameter for `value`, shared by equal values.
    mutating func parameter(_ value: SQLValue) -> String {
        let key = BindingKey(value)
        if let index = parameterByValue[key] { return "?\(index)" }
        bindings.append(value)
        parameterByValue[key] = bindings.count
        return "?\(bindings.count)"
    }

    /// Identity of a bound value, byte-exact for text (Swift's `==` on strings is canonical
    /// equivalence, which would merge "é" with "e" + U+0301).
    private enum BindingKey: Hashable {
        case null
        case integer(Int64)
        case real(UInt64)
        case text([UInt8])
        case blob([UInt8])

        init(_ value: SQLValue) {
            switch value {
            case .null: self = .null
            case .integer(let integer): self = .integer(integer)
            case .real(let real): self = .real(real.bitPattern)
            case .text(let text): self = .text(Array(text.utf8))
            case .blob(let data): self = .blob(Array(data))
            }
        }
    }
}
