// Comparisons of two computed values (`completedAt > due`, `budget - spent < 0`,
// `due > project.deadline`): each side written as an SQL expression, as ``PredicateSemantics``
// defines it. A key through to-ones is a correlated scalar subquery on primary keys.
extension PredicateSQLCompiler {
    mutating func values(_ lhs: PredicateValue, _ comparison: ValueComparison, _ rhs: PredicateValue) throws -> Fragment {
        let a = try value(lhs)
        return PredicateSemantics.compareValuesSQL(a, comparison, try value(rhs))
    }

    /// One side (recursion bounded by ``PredicateValue/maximumOperations``).
    private mutating func value(_ value: PredicateValue) throws -> Fragment {
        switch value {
        case .key(let key): return try keyValue(key)
        case .constant(let constant): return Fragment(sql: parameter(constant), stack: 1, height: 1)
        case .arithmetic(let op, let lhs, let rhs):
            let a = try self.value(lhs)
            return PredicateSemantics.arithmeticSQL(op, a, try self.value(rhs))
        case .negated(let inner): return PredicateSemantics.negateSQL(try self.value(inner))
        }
    }

    private mutating func keyValue(_ key: String) throws -> Fragment {
        if !PredicateKey.isPath(key), let attribute = entity.attribute(named: key) {
            try ExternalStorage.checkComparison(.values(.key(key), .order(.equal), .key(key)), on: attribute, of: entity)
            return PredicateSemantics.valueSQL(column: column(attribute.name))
        }
        let resolved = try PredicateKey.resolve(key, in: entity)
        guard case .attribute(let attribute) = resolved.target else {
            throw PersistError(.invalidPredicate, "\(key) is not an attribute: only attributes can be computed with or compared with keys",
                               entity: entity.name, attribute: key)
        }
        try ExternalStorage.checkComparison(.values(.key(key), .order(.equal), .key(key)), on: attribute, of: resolved.entity)
        guard let first = resolved.hops.first else { return PredicateSemantics.valueSQL(column: column(attribute.name)) }
        // Qualified even in the fetch's own WHERE: the subquery's tables may have a column of that name.
        let owner = SQLName.quote(scope.qualifier ?? entity.name)
        valueSubqueries += 1
        let number = valueSubqueries
        return PredicateSemantics.toOneValueSQL(resolved.hops, column: attribute.name,
                                                foreignKey: owner + "." + SQLName.quote(first.relationship.name),
                                                primaryKey: SQLName.quote(SchemaSQL.primaryKey)) { "\"_v\(number)_\($0)\"" }
    }
}
