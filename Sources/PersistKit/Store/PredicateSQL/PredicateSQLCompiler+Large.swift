// Predicates through relationships too large for plain SQL (more comparisons or values than
// SQLite prepares quickly, or nesting beyond its parser's stack): the parts that read no
// relationship become `pk_predicate` calls on their own table's columns (inside the
// relationship subqueries too), and the relationship structure stays SQL around them.
extension PredicateSQLCompiler {
    /// A leaf with at most this many values is still written as SQL in a large predicate.
    static let largeLeafValues = 16

    static func compileLarge(_ node: PredicateNode, entity: EntityDescription,
                             size: (comparisons: Int, values: Int)) throws -> Compiled {
        var compiler = PredicateSQLCompiler(entity: entity)
        compiler.isLarge = true
        let fragment = try compiler.emitLarge(node)
        guard fragment.stack <= parserStackBudget, fragment.height <= expressionHeightBudget,
              compiler.bindings.count < SQLiteLimits.current.variables else {
            throw PersistError(.invalidPredicate,
                "The predicate is too large or too deeply nested for SQL (\(size.comparisons) comparisons, \(size.values) values, "
                + "conditions through relationships nested inside one another): fetch with several smaller predicates",
                entity: entity.name)
        }
        return Compiled(sql: fragment.sql, bindings: compiler.bindings)
    }

    /// A normalized node of a large predicate, in the current scope.
    mutating func emitLarge(_ node: PredicateNode) throws -> Fragment {
        if !readsRelationships(node) {
            let size = Self.size(of: node)
            return size.comparisons > 1 || size.values > Self.largeLeafValues ? try functionCall(node) : try emit(node)
        }
        switch node {
        case .and(let children), .or(let children):
            let separator: String
            if case .and = node { separator = " AND " } else { separator = " OR " }
            let plain = children.filter { !readsRelationships($0) }
            var operands: [Fragment] = []
            if !plain.isEmpty {
                operands.append(try functionCall(plain.count == 1 ? plain[0] : (separator == " AND " ? .and(plain) : .or(plain))))
            }
            for child in children where readsRelationships(child) { operands.append(try emitLarge(child)) }
            return Self.chunkedChain(operands, separator)
        case .not(let inner):
            let fragment = try emitLarge(inner)
            return Fragment(sql: "(NOT " + fragment.sql + ")", stack: fragment.stack + 2, height: fragment.height + 1)
        default:
            // A key path or relationship condition: its leaves go through `emitLarge` again in
            // their own scope (see `comparison` and `condition`).
            return try comparison(node)
        }
    }

    /// Whether a node reads anything but the current scope's own columns.
    func readsRelationships(_ node: PredicateNode) -> Bool {
        if node.readsRelationships { return true }
        return node.attributeNamesInOrder.contains { name in
            entity.attribute(named: name) == nil && entity.relationship(named: name)?.kind != .toOne
        }
    }

    /// `pk_predicate(?n, "_t1"."a", ...)`: a part reading the current scope's columns only
    /// (attributes, foreign keys, the primary key), evaluated by the in-memory evaluator.
    mutating func functionCall(_ node: PredicateNode) throws -> Fragment {
        let node = node.decidingEntityTests(for: entity)
        var names: [String] = []
        var seen: Set<String> = []
        for name in node.attributeNamesInOrder where seen.insert(name).inserted { names.append(name) }
        let limit = SQLiteLimits.current.functionArguments - 1
        guard names.count <= limit else {
            throw PersistError(.invalidPredicate,
                "The predicate is too large for SQL and reads \(names.count) attributes of \(entity.name); "
                + "SQLite passes at most \(limit) to a function: split it into several fetches", entity: entity.name)
        }
        let blob = try PredicateCodec.encode(node, attributes: names)
        let sql = "\(PredicateFunction.name)(\(parameter(.blob(blob)))" + names.map { ", " + column($0) }.joined() + ")"
        return Fragment(sql: sql, stack: 6, height: 2)
    }

    /// The operands joined, in chunks SQLite's parser takes.
    static func chunkedChain(_ operands: [Fragment], _ separator: String) -> Fragment {
        guard operands.count > 1 else { return operands.first ?? Fragment(sql: separator == " AND " ? "1" : "0", stack: 1, height: 1) }
        var level = operands
        while level.count > chunkWidth {
            level = stride(from: 0, to: level.count, by: chunkWidth).map {
                joined(Array(level[$0..<min($0 + chunkWidth, level.count)]), separator)
            }
        }
        return joined(level, separator)
    }

    private static func joined(_ operands: [Fragment], _ separator: String) -> Fragment {
        guard operands.count > 1, let first = operands.first else { return operands.first ?? Fragment(sql: "1", stack: 1, height: 1) }
        var stack = 1 + first.stack
        var height = first.height
        for operand in operands.dropFirst() {
            stack = max(stack, 3 + operand.stack)
            height = max(height, operand.height) + 1
        }
        return Fragment(sql: "(" + operands.map(\.sql).joined(separator: separator) + ")", stack: stack, height: height)
    }
}
