import PersistKitText

// Comparisons: a column of the scope's table, or a key path through relationships, which
// becomes an uncorrelated subquery (SQLite runs it once, and looks rows up through the
// foreign-key index or the primary key): never a per-row scan of the related table.
extension PredicateSQLCompiler {
    /// `"name"`, or `"_t1"."name"` inside a subquery.
    func column(_ name: String) -> String {
        scope.qualifier.map { SQLName.quote($0) + "." + SQLName.quote(name) } ?? SQLName.quote(name)
    }

    mutating func comparison(_ node: PredicateNode) throws -> Fragment {
        if case .relationship(let relationship) = node { return try self.relationship(relationship) }
        if case .values(let lhs, let comparison, let rhs) = node { return try values(lhs, comparison, rhs) }
        guard let key = PredicateEvaluator.key(of: node) else {
            // Normalization leaves only comparisons here.
            throw PersistError(.invalidPredicate, "The predicate has a part SQL cannot express", entity: entity.name)
        }
        if !PredicateKey.isPath(key), let attribute = entity.attribute(named: key) {
            try ExternalStorage.checkComparison(node, on: attribute, of: entity)
            return try leaf(node, column: column(attribute.name), isOptional: attribute.isOptional)
        }
        let resolved = try PredicateKey.resolve(key, in: entity)
        guard !resolved.hops.isEmpty else { return try target(node, resolved) }
        if isLarge, let local = node.withKey(resolved.localKey) {
            // The leaf on the related object, as `emitLarge` writes it there.
            let nilValue = try PredicateEvaluator.evaluate(try PredicateEvaluator.comparison(node, slot: 0), [.null])
            return try throughToOnes(resolved.hops, nilValue: nilValue) { try $0.emitLarge(local) }
        }
        let nilValue = try PredicateEvaluator.evaluate(try PredicateEvaluator.comparison(node, slot: 0), [.null])
        return try throughToOnes(resolved.hops, nilValue: nilValue) { try $0.target(node, resolved) }
    }

    /// The comparison on the column a resolved key ends at, in the current scope.
    private mutating func target(_ node: PredicateNode, _ resolved: PredicateKey.Resolved) throws -> Fragment {
        switch resolved.target {
        case .attribute(let attribute):
            try ExternalStorage.checkComparison(node, on: attribute, of: resolved.entity)
            return try leaf(node, column: column(attribute.name), isOptional: attribute.isOptional)
        case .toOne(let relationship): return try leaf(node, column: column(relationship.name), isOptional: true)
        case .object: return try leaf(node, column: column(SchemaSQL.primaryKey), isOptional: false)
        }
    }

    /// One comparison of a column (never NULL: SQL's unknown never reaches the logic), as
    /// ``PredicateSemantics`` defines it.
    private mutating func leaf(_ node: PredicateNode, column: String, isOptional: Bool) throws -> Fragment {
        switch node {
        case .compare(_, let op, let value):
            return compare(column, isOptional: isOptional, op, value)
        case .text(_, let op, let pattern, let options):
            return PredicateSemantics.textSQL(column, op, pattern, options) { parameter($0) }
        case .matches(_, let regex):
            return PredicateSemantics.matchesSQL(column, regex) { parameter($0) }
        case .inList(_, let values):
            return PredicateSemantics.inListSQL(column, isOptional: isOptional, values) { parameter($0) }
        default:
            throw PersistError(.invalidPredicate, "The predicate has a part SQL cannot express", entity: entity.name)
        }
    }

    /// `expression op value`, two-valued (``PredicateSemantics/compareSQL(_:isOptional:_:_:bind:)``).
    mutating func compare(_ expression: String, isOptional: Bool, _ op: ComparisonOperator, _ value: SQLValue) -> Fragment {
        PredicateSemantics.compareSQL(expression, isOptional: isOptional, op, value) { parameter($0) }
    }

    // MARK: - Through to-ones

    /// Parser stack entries a subquery adds around its `WHERE` expression (measured on SQLite
    /// 3.40: nine levels of `x IN (SELECT ... WHERE ...)` overflow the parser's 100 entries).
    static let subqueryStack = 12
    /// Expression tree height a subquery adds.
    static let subqueryHeight = 3

    /// A condition on the object at the end of to-one `hops`, written by `body` in that
    /// object's scope; `nilValue` where a to-one on the way is nil.
    ///
    /// `"project" IN (SELECT "_t1"."_pk" FROM "Project" AS "_t1" JOIN "Owner" AS "_t2" ON
    /// "_t2"."_pk" = "_t1"."owner" WHERE <condition on _t2>)`: one subquery for the whole path,
    /// whose keys SQLite looks up through the foreign-key index. Where nil counts as true, the
    /// rows that fail are excluded instead: `"project" IS NULL OR NOT ("project" IN (... WHERE NOT ...))`.
    mutating func throughToOnes(_ hops: [PredicateKey.Hop], nilValue: Bool,
                                _ body: (inout PredicateSQLCompiler) throws -> Fragment) throws -> Fragment {
        guard let first = hops.first, let last = hops.last else { return try body(&self) }
        let foreignKey = column(first.relationship.name)
        let primaryKey = SQLName.quote(SchemaSQL.primaryKey)
        let from = PredicateSemantics.toOnePathTables(hops, primaryKey: primaryKey) { "\"_t\($0)\"" }
        let outer = scope
        scope = Scope(entity: last.destination, qualifier: "_t\(hops.count)")
        defer { scope = outer }
        let inner = try body(&self)
        let select = "SELECT \"_t1\".\(primaryKey) FROM \(from) WHERE " + (nilValue ? "NOT \(inner.sql)" : inner.sql)
        let sql = nilValue ? "(\(foreignKey) IS NULL OR NOT (\(foreignKey) IN (\(select))))"
            : "(\(foreignKey) IS NOT NULL AND \(foreignKey) IN (\(select)))"
        return Fragment(sql: sql, stack: inner.stack + Self.subqueryStack, height: inner.height + Self.subqueryHeight)
    }
}
