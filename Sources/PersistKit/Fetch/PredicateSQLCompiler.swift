import CSQLite

/// Compiles a resolved predicate to an SQL `WHERE` expression with bound values.
///
/// Each comparison compiles to an expression that is never NULL, so SQL's three-valued logic
/// collapses to the two-valued logic the in-memory evaluator uses. Both start from the same
/// normalized tree (``PredicateNode/normalized()``).
///
/// The SQL is shaped to fit SQLite's own limits however large the predicate:
/// - **Parser stack.** SQLite's LALR parser (before 3.46) has a fixed stack of 100 entries. An
///   operand that follows `AND`/`OR` inside parentheses costs three entries, the first operand of
///   a parenthesized group one. So the operand that needs the most stack goes first, and
///   nesting that follows the deepest branch costs one entry per level.
/// - **Expression depth.** SQLite parses `a AND b AND c` left-deep and refuses trees deeper than
///   1000 (`SQLITE_MAX_EXPR_DEPTH`). Groups wider than ``chunkWidth`` are split into
///   parenthesized chunks, recursively, so 100,000 terms are about 3 levels of 64-term chains.
/// - **Parameters.** Equal values share one numbered parameter (`?7`). When more than
///   ``boundValueLimit`` distinct values remain, integers, text and blobs are written inline as
///   literals; only reals stay bound (a decimal literal may not round-trip exactly).
///
/// Each fragment's cost in parser stack entries and tree height is tracked (conservatively), and
/// a predicate that would still exceed a limit is refused with a clear error rather than
/// SQLite's "parser stack overflow".
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
    /// surrounding `SELECT ... WHERE` takes, less a margin).
    static let parserStackBudget = 88
    /// Expression tree height the WHERE expression may reach (1000 in SQLite, less a margin for
    /// the conditions a fetch adds around it).
    static let expressionHeightBudget = 990

    /// The most distinct values a predicate binds; beyond, values are written inline. SQLite's
    /// compile-time maximum is 32,766 by default (999 before 3.32); some builds allow more.
    static let boundValueLimit: Int = {
        var db: OpaquePointer?
        defer { if let db { sqlite3_close_v2(db) } }
        guard sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, nil) == SQLITE_OK,
              let db else { return 998 }
        // One parameter is left for the conditions a fetch adds (the excluded-keys list).
        return max(1, min(30_000, Int(sqlite3_limit(db, SQLITE_LIMIT_VARIABLE_NUMBER, -1)) - 1))
    }()

    /// One compiled piece: its SQL and what parsing it costs SQLite.
    struct Fragment {
        var sql: String
        /// Parser stack entries in use at most while parsing it.
        var stack: Int
        /// The height of its expression tree.
        var height: Int
    }

    private let entity: EntityDescription
    private let inlinesValues: Bool
    private(set) var bindings: [SQLValue] = []
    private var parameterByValue: [BindingKey: Int] = [:]

    private init(entity: EntityDescription, inlinesValues: Bool) {
        self.entity = entity
        self.inlinesValues = inlinesValues
    }

    static func compile(_ node: PredicateNode, entity: EntityDescription) throws -> Compiled {
        let normalized = try node.normalized()
        var compiler = PredicateSQLCompiler(entity: entity, inlinesValues: false)
        var fragment = try compiler.emit(normalized)
        if compiler.bindings.count > boundValueLimit {
            compiler = PredicateSQLCompiler(entity: entity, inlinesValues: true)
            fragment = try compiler.emit(normalized)
            if compiler.bindings.count > boundValueLimit {
                throw PersistError(.invalidPredicate,
                    "The predicate compares with \(compiler.bindings.count) distinct floating-point values; "
                    + "SQLite can bind at most \(boundValueLimit): split it into several fetches", entity: entity.name)
            }
        }
        if fragment.stack > parserStackBudget || fragment.height > expressionHeightBudget {
            throw PersistError(.invalidPredicate,
                "The predicate is too complex for SQLite: its SQL needs \(fragment.stack) parser stack entries "
                + "(at most \(parserStackBudget)) and an expression tree \(fragment.height) deep "
                + "(at most \(expressionHeightBudget)); nest fewer AND/OR groups inside one another", entity: entity.name)
        }
        return Compiled(sql: fragment.sql, bindings: compiler.bindings)
    }

    private func attribute(_ name: String) throws -> AttributeDescription {
        guard let attribute = entity.attribute(named: name) else {
            throw PersistError(.invalidPredicate, "\(entity.name) has no attribute named \(name)",
                               entity: entity.name, attribute: name)
        }
        return attribute
    }

    // MARK: - Groups

    /// Emits a normalized node. Recursion follows group nesting, at most
    /// ``PredicateNode/maximumNesting`` levels.
    private mutating func emit(_ node: PredicateNode) throws -> Fragment {
        switch node {
        case .constant(let value):
            return Fragment(sql: value ? "1" : "0", stack: 1, height: 1)
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

    // MARK: - Comparisons

    private mutating func comparison(_ node: PredicateNode) throws -> Fragment {
        switch node {
        case .compare(let name, let op, let value):
            let attribute = try attribute(name)
            let column = SQLName.quote(attribute.name)
            switch (op, value) {
            case (.equal, .null): return Fragment(sql: "(\(column) IS NULL)", stack: 5, height: 2)
            case (.notEqual, .null): return Fragment(sql: "(\(column) IS NOT NULL)", stack: 5, height: 2)
            case (_, .null): return Fragment(sql: "0", stack: 1, height: 1)
            case (.equal, _):
                let operator_ = attribute.isOptional ? "IS" : "="
                return Fragment(sql: "(\(column) \(operator_) \(parameter(value)))", stack: 5, height: 2)
            case (.notEqual, _):
                let operator_ = attribute.isOptional ? "IS NOT" : "<>"
                return Fragment(sql: "(\(column) \(operator_) \(parameter(value)))", stack: 5, height: 2)
            default:
                let test = "\(column) \(op.sql) \(parameter(value))"
                return attribute.isOptional
                    ? Fragment(sql: "(\(column) IS NOT NULL AND \(test))", stack: 7, height: 3)
                    : Fragment(sql: "(\(test))", stack: 5, height: 2)
            }
        case .text(let name, let op, let pattern, let options):
            let attribute = try attribute(name)
            let call = "\(TextFunctions.functionName(op, options))(\(SQLName.quote(attribute.name)), \(parameter(.text(pattern))))"
            return Fragment(sql: call, stack: 6, height: 2)
        case .matches(let name, let regex):
            let attribute = try attribute(name)
            let call = "\(TextFunctions.matchesFunctionName(regex.options))(\(SQLName.quote(attribute.name)), \(parameter(.text(regex.pattern))))"
            return Fragment(sql: call, stack: 6, height: 2)
        case .inList(let name, let values):
            return try inList(try attribute(name), values)
        default:
            // Normalization leaves only comparisons here.
            throw PersistError(.invalidPredicate, "The predicate has a part SQL cannot express", entity: entity.name)
        }
    }

    private mutating func inList(_ attribute: AttributeDescription, _ values: [SQLValue]) throws -> Fragment {
        let column = SQLName.quote(attribute.name)
        let nonNull = values.filter { !$0.isNull }
        let matchesNull = values.count != nonNull.count
        var parts: [String] = []
        if !nonNull.isEmpty {
            var list = ""
            for (offset, value) in nonNull.enumerated() {
                if offset > 0 { list += ", " }
                list += parameter(value)
            }
            parts.append(attribute.isOptional ? "(\(column) IS NOT NULL AND \(column) IN (\(list)))" : "(\(column) IN (\(list)))")
        }
        if matchesNull { parts.append("(\(column) IS NULL)") }
        switch parts.count {
        case 0: return Fragment(sql: "0", stack: 1, height: 1)
        case 1: return Fragment(sql: parts[0], stack: 9, height: 3)
        default: return Fragment(sql: "(" + parts.joined(separator: " OR ") + ")", stack: 12, height: 4)
        }
    }

    // MARK: - Values

    /// A numbered parameter for `value` (shared by equal values), or in inline mode a literal.
    private mutating func parameter(_ value: SQLValue) -> String {
        if inlinesValues, let literal = Self.literal(value) { return literal }
        let key = BindingKey(value)
        if let index = parameterByValue[key] { return "?\(index)" }
        bindings.append(value)
        parameterByValue[key] = bindings.count
        return "?\(bindings.count)"
    }

    /// An SQL literal with exactly the value's storage class and bytes; nil for reals.
    private static func literal(_ value: SQLValue) -> String? {
        switch value {
        case .null: return "NULL"
        case .integer(let integer):
            // -9223372036854775808 would parse as minus a too-large integer, i.e. a real.
            return integer == .min ? "(-9223372036854775807-1)" : String(integer)
        case .real: return nil
        case .text(let text):
            if text.utf8.contains(0) { return "CAST(X'\(hex(text.utf8))' AS TEXT)" }
            return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data): return "X'\(hex(data))'"
        }
    }

    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
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

/// Quoting of SQL identifiers, so names like `order`, `group` or `Index` work.
enum SQLName {
    static func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
