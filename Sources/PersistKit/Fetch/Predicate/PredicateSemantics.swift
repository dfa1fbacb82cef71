import Foundation
import PersistKitText

/// What each predicate operator means, defined once: for every operator, the in-memory answer
/// (``PredicateEvaluator`` on objects, and `pk_predicate` inside SQLite) and the SQL the store's
/// compiler writes for it (`PredicateSQLCompiler`), side by side.
///
/// Every comparison is two-valued (true or false, never SQL's unknown), in SQL and in memory
/// alike: `==` and `!=` treat nil as a value (`due == nil`), ordering comparisons, string
/// operators and `MATCHES` are false when either side is nil, and `NOT` flips true and false.
/// So the SQL written here is never NULL, and SQL's three-valued logic never reaches `AND`,
/// `OR` and `NOT`. Values compare as SQLite compares them (``SQLValue/compare(_:_:collation:)``):
/// numbers by value whatever their storage class, text and blobs by bytes.
///
/// The two sides of an operator must agree: change them together. The equivalence tests
/// (`PredicateEquivalenceTests`, `RelationshipPredicateEquivalenceTests`,
/// `FoundationPredicateEquivalenceTests`) run generated predicates both ways and compare.
enum PredicateSemantics {
    /// Binds a value as a statement parameter and returns its placeholder (`?3`).
    typealias Bind = (SQLValue) -> String

    // MARK: - Equality and order: ==, !=, <, <=, >, >=

    /// Memory: `stored op value`.
    static func compare(_ stored: SQLValue, _ op: ComparisonOperator, _ value: SQLValue) -> Bool {
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
    }

    /// SQL: `expression op value`, never NULL: `IS` where nil may be on either side, and an
    /// ordering of a column that may be NULL guarded by `IS NOT NULL`.
    static func compareSQL(_ expression: String, isOptional: Bool, _ op: ComparisonOperator, _ value: SQLValue,
                           bind: Bind) -> SQLFragment {
        switch (op, value) {
        case (.equal, .null): return SQLFragment(sql: "(\(expression) IS NULL)", stack: 5, height: 2)
        case (.notEqual, .null): return SQLFragment(sql: "(\(expression) IS NOT NULL)", stack: 5, height: 2)
        case (_, .null): return SQLFragment(sql: "0", stack: 1, height: 1)
        case (.equal, _):
            let operator_ = isOptional ? "IS" : "="
            return SQLFragment(sql: "(\(expression) \(operator_) \(bind(value)))", stack: 5, height: 2)
        case (.notEqual, _):
            let operator_ = isOptional ? "IS NOT" : "<>"
            return SQLFragment(sql: "(\(expression) \(operator_) \(bind(value)))", stack: 5, height: 2)
        default:
            let test = "\(expression) \(op.sql) \(bind(value))"
            return isOptional
                ? SQLFragment(sql: "(\(expression) IS NOT NULL AND \(test))", stack: 7, height: 3)
                : SQLFragment(sql: "(\(test))", stack: 5, height: 2)
        }
    }

    /// SQL's `IS`: NULL equals NULL, numbers compare by value, text and blobs by bytes.
    static func equal(_ a: SQLValue, _ b: SQLValue) -> Bool {
        if a.isNull || b.isNull { return a.isNull && b.isNull }
        return SQLValue.compare(a, b) == 0
    }

    /// Values equal under SQL's `IS` (as ``equal(_:_:)``) have equal keys: integers and reals of
    /// the same exact value are one key, text is keyed by its bytes. NULL and NaN (equal to
    /// nothing) have none. How a long `IN` list is looked up in memory.
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

    // MARK: - IN

    /// Memory: `stored IN values`, each compared with ``equal(_:_:)`` (nil in the list matches nil).
    static func inList(_ stored: SQLValue, _ values: [SQLValue]) -> Bool {
        values.contains { equal(stored, $0) }
    }

    /// Memory, for a long list: `stored IN` the list whose keys are `keys` (with `matchesNull`
    /// when nil is in it).
    static func inSet(_ stored: SQLValue, _ keys: Set<EqualityKey>, matchesNull: Bool) -> Bool {
        if stored.isNull { return matchesNull }
        return EqualityKey(stored).map(keys.contains) ?? false
    }

    /// SQL: `column IN (...)` for the values, `OR column IS NULL` when nil is among them. A long
    /// list is one JSON array, `column IN (SELECT value FROM json_each(?))`
    /// (``jsonList(_:)``), which SQLite looks up member by member through the column's index.
    static func inListSQL(_ column: String, isOptional: Bool, _ values: [SQLValue], bind: Bind) -> SQLFragment {
        let nonNull = values.filter { !$0.isNull }
        let matchesNull = values.count != nonNull.count
        var parts: [String] = []
        if !nonNull.isEmpty {
            var list = ""
            if let json = jsonList(nonNull) {
                list = "SELECT value FROM json_each(\(bind(json)))"
            } else {
                for (offset, value) in nonNull.enumerated() {
                    if offset > 0 { list += ", " }
                    list += bind(value)
                }
            }
            parts.append(isOptional ? "(\(column) IS NOT NULL AND \(column) IN (\(list)))" : "(\(column) IN (\(list)))")
        }
        if matchesNull { parts.append("(\(column) IS NULL)") }
        switch parts.count {
        case 0: return SQLFragment(sql: "0", stack: 1, height: 1)
        case 1: return SQLFragment(sql: parts[0], stack: 9, height: 3)
        default: return SQLFragment(sql: "(" + parts.joined(separator: " OR ") + ")", stack: 12, height: 4)
        }
    }

    // MARK: - Text: ==, CONTAINS, BEGINSWITH, ENDSWITH, LIKE, with [c] and [d]

    /// Memory: a text value matched by ``TextMatcher`` (anything else never matches).
    static func text(_ stored: SQLValue, _ op: TextMatchOperator, _ pattern: String, _ options: StringComparisonOptions) -> Bool {
        guard case .text(let value) = stored else { return false }
        return TextMatcher.matches(op, value: value, pattern: pattern, options: options.textOptions)
    }

    /// SQL: `pk_<operator>_<options>(column, pattern)`, the SQL function that calls the same
    /// ``TextMatcher`` (``TextFunctions``): 0 for anything but text.
    static func textSQL(_ column: String, _ op: TextMatchOperator, _ pattern: String, _ options: StringComparisonOptions,
                        bind: Bind) -> SQLFragment {
        SQLFragment(sql: "\(TextFunctions.functionName(op, options.textOptions))(\(column), \(bind(.text(pattern))))",
                    stack: 6, height: 2)
    }

    // MARK: - MATCHES

    /// Memory: the whole text value matches the regular expression (anything else never does).
    ///
    /// - Throws: ``PersistError`` when the evaluation passes the regex's step bound
    ///   (`PredicateRegex.matches`), as `pk_matches` does in SQL.
    static func matches(_ stored: SQLValue, _ regex: PredicateRegex) throws(PersistError) -> Bool {
        guard case .text(let value) = stored else { return false }
        return try regex.matches(value)
    }

    /// SQL: `pk_matches_<options>(column, pattern)`, the SQL function that runs the same
    /// ``PredicateRegex`` (registered by the store's `PredicateSQLFunctions`).
    static func matchesSQL(_ column: String, _ regex: PredicateRegex, bind: Bind) -> SQLFragment {
        SQLFragment(sql: "\(matchesFunctionName(regex.options))(\(column), \(bind(.text(regex.pattern))))", stack: 6, height: 2)
    }

    /// The SQL function name for `MATCHES` with options, e.g. `pk_matches_1`.
    static func matchesFunctionName(_ options: StringComparisonOptions) -> String {
        "pk_matches_\(options.rawValue & 3)"
    }

    // MARK: - Through to-ones (`project.owner.name`)

    /// Memory: the object at the end of to-ones `hops` (relationship indexes) from `object`,
    /// or nil when a to-one on the way is nil (the comparison then gives its answer on nil).
    static func follow(_ hops: [Int], from object: ManagedObject) -> ManagedObject? {
        var current = object
        for hop in hops {
            guard let next = current.relatedObject(at: hop) else { return nil }
            current = next
        }
        return current
    }

    /// SQL: the tables of to-one `hops` joined in order, the `n`th (from 1) named
    /// `alias(n)`: `"Project" AS "_t1" JOIN "Owner" AS "_t2" ON "_t2"."_pk" = "_t1"."owner"`.
    /// The predicate compiler's subqueries and the sorts through to-ones both read it.
    static func toOnePathTables(_ hops: [PredicateKey.Hop], primaryKey: String, alias: (Int) -> String) -> String {
        var tables = ""
        for (offset, hop) in hops.enumerated() {
            let name = alias(offset + 1)
            if offset == 0 {
                tables = hop.destination.rowsWithSubentitiesSQL + " AS " + name
            } else {
                tables += " JOIN \(hop.destination.rowsWithSubentitiesSQL) AS \(name) ON \(name).\(primaryKey) = "
                    + "\(alias(offset)).\(SQLName.quote(hop.relationship.name))"
            }
        }
        return tables
    }

    // MARK: - To-manys: ANY, @count, SUBQUERY(...).@count, @sum, @avg, @min, @max

    /// Memory: some of `objects` satisfies the test.
    static func any(_ objects: [ManagedObject], _ satisfies: (ManagedObject) throws(PersistError) -> Bool) throws(PersistError) -> Bool {
        for object in objects where try satisfies(object) { return true }
        return false
    }

    /// SQL: the owner's key among the owners of the related rows that satisfy the test
    /// (`select` lists them).
    static func anySQL(_ primaryKey: String, owners select: String, test: SQLFragment?,
                       subqueryStack: Int, subqueryHeight: Int) -> SQLFragment {
        SQLFragment(sql: "(\(primaryKey) IN (\(select)))", stack: (test?.stack ?? 1) + subqueryStack,
                    height: (test?.height ?? 1) + subqueryHeight)
    }

    /// Memory: how many of `objects` satisfy the test (all of them when it is nil), compared
    /// with `value`.
    static func count(_ objects: [ManagedObject], _ satisfies: ((ManagedObject) throws(PersistError) -> Bool)?,
                      _ op: ComparisonOperator, _ value: SQLValue) throws(PersistError) -> Bool {
        var count = objects.count
        if let satisfies {
            count = 0
            for object in objects where try satisfies(object) { count += 1 }
        }
        return compare(.integer(Int64(count)), op, value)
    }

    /// SQL: the `HAVING` test of a group of related rows, `count(*) op value`.
    static func countSQL(_ op: ComparisonOperator, _ value: SQLValue, bind: Bind) -> SQLFragment {
        compareSQL("count(*)", isOptional: false, op, value, bind: bind)
    }

    /// Memory: the aggregate of the values of one slot of `objects`, compared with `value`.
    static func aggregate(_ function: AggregateFunction, of values: [SQLValue], _ op: ComparisonOperator, _ value: SQLValue) -> Bool {
        compare(function.apply(values), op, value)
    }

    /// SQL: the `HAVING` test of a group of related rows, `aggregate(column) op value` (`total()`
    /// for `@sum`, which is never NULL, as ``AggregateFunction/apply(_:)`` is not).
    static func aggregateSQL(_ function: AggregateFunction, column: String, _ op: ComparisonOperator, _ value: SQLValue,
                             bind: Bind) -> SQLFragment {
        let call = (function == .sum ? "total" : function.rawValue) + "(\(column))"
        return compareSQL(call, isOptional: function != .sum, op, value, bind: bind)
    }

    /// Both: the answer for an owner with no related objects (no group in SQL): a count of 0,
    /// an aggregate of nothing (``AggregateFunction/valueWhenEmpty``), `ANY` false.
    static func valueWhenEmpty(_ kind: RelationshipPredicate.Kind) -> Bool {
        switch kind {
        case .any: return false
        case .count(_, let op, let value): return compare(.integer(0), op, value)
        case .aggregate(let function, _, let op, let value): return compare(function.valueWhenEmpty, op, value)
        }
    }
}
