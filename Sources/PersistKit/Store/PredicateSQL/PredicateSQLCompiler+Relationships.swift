// Conditions on a to-many's objects, as uncorrelated subqueries over the destination table
// (a to-many whose inverse is a to-one) or the join table: SQLite computes each once per fetch.
extension PredicateSQLCompiler {
    /// How the objects of a to-many are found from its owners, in SQL.
    private struct Link {
        /// `FROM` of the subquery: the destination (`AS "_d"`) or the join table (`AS "_j"`).
        let from: String
        /// The column holding the owner's key.
        let owner: String
        /// Joins the destination's rows when they are needed (join tables only).
        let joinDestination: String?
        /// Always true of a link row (a foreign key that is set).
        let condition: String?

        init(_ hop: PredicateKey.Hop) throws {
            let primaryKey = SQLName.quote(SchemaSQL.primaryKey)
            let destination = hop.destination.rowsWithSubentitiesSQL
            switch hop.relationship.storage {
            case .inverseForeignKey(_, let slot, _) where slot < hop.destination.columns.count:
                let foreignKey = "\"_d\"." + SQLName.quote(hop.destination.columns[slot].name)
                from = "\(destination) AS \"_d\""
                owner = foreignKey
                joinDestination = nil
                condition = "\(foreignKey) IS NOT NULL"
            case .joinTable(let table, let isOwner):
                let (mine, theirs) = isOwner ? (JoinTable.ownerColumn, JoinTable.destinationColumn)
                    : (JoinTable.destinationColumn, JoinTable.ownerColumn)
                from = "\(SQLName.quote(table.name)) AS \"_j\""
                owner = "\"_j\".\(SQLName.quote(mine))"
                joinDestination = " JOIN \(destination) AS \"_d\" ON \"_d\".\(primaryKey) = \"_j\".\(SQLName.quote(theirs))"
                condition = nil
            default:
                throw PersistError(.invalidPredicate,
                    "\(hop.entity.name).\(hop.relationship.name) is not a to-many of this model's store", entity: hop.entity.name,
                    attribute: hop.relationship.name)
            }
        }

        /// `SELECT owner FROM ... WHERE ...`, with the destination joined when `test` reads it.
        func select(_ test: String?, needsDestination: Bool) -> String {
            var sql = "SELECT \(owner) FROM \(from)"
            if needsDestination, let joinDestination { sql += joinDestination }
            let conditions = [condition, test].compactMap { $0 }
            if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
            return sql
        }
    }

    /// `ANY`, `@count`, `SUBQUERY(...).@count` and aggregates, through the path's to-ones first.
    mutating func relationship(_ relationship: RelationshipPredicate) throws -> Fragment {
        let collection = try PredicateKey.resolveCollection(relationship.path, in: entity)
        return try throughToOnes(collection.hops, nilValue: relationship.valueWhenEmpty) {
            try $0.toMany(collection.relationship, relationship.kind)
        }
    }

    /// The condition on the current scope's to-many `hop`.
    private mutating func toMany(_ hop: PredicateKey.Hop, _ kind: RelationshipPredicate.Kind) throws -> Fragment {
        let link = try Link(hop)
        let primaryKey = column(SchemaSQL.primaryKey)
        let outer = scope
        scope = Scope(entity: hop.destination, qualifier: "_d")
        defer { scope = outer }
        switch kind {
        case .any(let inner):
            let test = try condition(inner)
            return PredicateSemantics.anySQL(primaryKey, owners: link.select(test?.sql, needsDestination: test != nil), test: test,
                                             subqueryStack: Self.subqueryStack, subqueryHeight: Self.subqueryHeight)
        case .count(let inner, let op, let value):
            let test = try condition(inner)
            let having = PredicateSemantics.countSQL(op, value) { parameter($0) }
            return grouped(link, primaryKey: primaryKey, test: test, having: having, whenEmpty: PredicateSemantics.valueWhenEmpty(kind))
        case .aggregate(let function, let name, let op, let value):
            guard let attribute = hop.destination.attribute(named: name) else {
                throw PredicateKey.unknownKey(name, in: hop.destination, keyPath: "\(hop.relationship.name).@\(function.rawValue).\(name)",
                                              rootEntity: outer.entity)
            }
            let having = PredicateSemantics.aggregateSQL(function, column: column(attribute.name), op, value) { parameter($0) }
            return grouped(link, primaryKey: primaryKey, test: nil, having: having,
                           whenEmpty: PredicateSemantics.valueWhenEmpty(kind), needsDestination: true)
        }
    }

    /// The inner condition's SQL, or nil when it is true for every object.
    private mutating func condition(_ inner: PredicateNode) throws -> Fragment? {
        if case .constant(true) = inner { return nil }
        return isLarge ? try emitLarge(inner) : try emit(inner)
    }

    /// Owners whose group of related rows satisfies `having`. Owners with no related rows are
    /// in no group: where an empty collection satisfies the condition, the owners of groups
    /// that fail are excluded instead.
    private func grouped(_ link: Link, primaryKey: String, test: Fragment?, having: Fragment, whenEmpty: Bool,
                         needsDestination: Bool = false) -> Fragment {
        let select = link.select(test?.sql, needsDestination: needsDestination || test != nil)
            + " GROUP BY \(link.owner) HAVING " + (whenEmpty ? "NOT \(having.sql)" : having.sql)
        let sql = whenEmpty ? "(NOT (\(primaryKey) IN (\(select))))" : "(\(primaryKey) IN (\(select)))"
        let stack = max(test?.stack ?? 1, having.stack) + Self.subqueryStack
        let height = max(test?.height ?? 1, having.height) + Self.subqueryHeight
        return Fragment(sql: sql, stack: stack, height: height)
    }
}
