extension ManagedObjectContext {
    /// How `request` would run, without running it: its SQL, SQLite's query plan, whether it
    /// runs in SQL or in memory (and why), and each table it reads whole to test a condition.
    ///
    /// ```swift
    /// let explanation = try context.explain(FetchRequest<TaskItem>(predicate: \.isComplete == false))
    /// if explanation.evaluation != .sql || !explanation.notes.isEmpty { print(explanation) }
    /// ```
    ///
    /// - Throws: ``PersistError`` for a request ``fetch(_:)`` would refuse (an invalid request or
    ///   predicate), or an SQLite error.
    ///
    /// A request that reads sub-entities (``FetchRequest/includesSubentities``) runs one query
    /// per entity whose objects it returns: its explanation has each of their statements and
    /// plans, in turn.
    public func explain<T: ManagedObject>(_ request: FetchRequest<T>) throws -> FetchExplanation {
        let plan = try plan(request)
        guard !plan.parts.isEmpty else { return try explain(plan, request) }
        let parts = try plan.parts.map { try explain($0, request) }
        let evaluations: [FetchExplanation.Evaluation] = [.evaluatorInSQL, .sqlAndPendingChanges, .sql]
        let evaluation = evaluations.first { evaluation in parts.contains { $0.evaluation == evaluation } } ?? .sql
        let names = plan.parts.map(\.entity.name).joined(separator: ", ")
        return FetchExplanation(
            entityName: plan.entity.name, sql: parts.map(\.sql).joined(separator: "\n"),
            boundValueCount: parts.map(\.boundValueCount).reduce(0, +),
            queryPlan: parts.flatMap { part in ["\(part.entityName):"] + part.queryPlan.map { "  " + $0 } },
            evaluation: evaluation,
            reason: "one query per entity the request reads (\(names)), merged in the request's order; for each, "
                + (parts.first { $0.evaluation == evaluation }?.reason ?? ""),
            notes: parts.flatMap(\.notes))
    }

    /// How one plan (of one entity) runs.
    private func explain<T: ManagedObject>(_ plan: FetchPlan, _ request: FetchRequest<T>) throws -> FetchExplanation {
        let sql = plan.query.selectSQL(limit: plan.limit, offset: plan.offset)
        let (queryPlan, notes) = try store.withReader { connection in
            let queryPlan = try QueryPlan.read(sql, db: connection.handle)
            return (queryPlan, queryPlan.scanNotes(sql, db: connection.handle))
        }
        let evaluation: FetchExplanation.Evaluation
        var reason: String
        let pending = request.includesPendingChanges ? try pendingObjects(for: plan) : PendingObjects()
        let unsaved = pending.inserted.count + pending.changedOrDeleted.count
        if let whereSQL = plan.query.whereSQL, whereSQL.contains(PredicateFunction.name + "(") {
            evaluation = .evaluatorInSQL
            var comparisons = 0, values = 0
            if let predicate = request.predicate {
                (comparisons, values) = PredicateSQLCompiler.size(of: try predicate.node.normalized())
            }
            reason = "the predicate, \(comparisons) comparisons and \(values) values, is beyond what SQLite parses "
                + "(at most \(PredicateSQLCompiler.maximumSQLComparisons) comparisons, \(PredicateSQLCompiler.maximumSQLValues) values, "
                + "and its parser's nesting): SQLite reads the rows and PersistKit's evaluator tests each one"
        } else if unsaved > 0 {
            evaluation = .sqlAndPendingChanges
            reason = "SQLite tests, sorts and windows the saved rows"
        } else {
            evaluation = .sql
            reason = "SQLite tests the predicate, sorts and windows the rows"
        }
        if unsaved > 0 {
            if evaluation == .sqlAndPendingChanges { reason += "; " } else { reason += "; and " }
            reason += "this context's \(unsaved) unsaved \(unsaved == 1 ? "object" : "objects") of \(plan.entity.name) "
                + "\(unsaved == 1 ? "is" : "are") tested, sorted and merged in memory"
        }
        if !request.relationshipKeyPathsForPrefetching.isEmpty {
            reason += "; then one query per prefetched relationship step"
        }
        return FetchExplanation(entityName: plan.entity.name, sql: sql, boundValueCount: plan.query.bindings.count,
                                queryPlan: queryPlan.lines, evaluation: evaluation, reason: reason, notes: notes)
    }
}
