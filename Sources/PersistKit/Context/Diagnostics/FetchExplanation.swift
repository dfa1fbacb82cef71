/// How a fetch request runs: its SQL, SQLite's query plan for it, and whether the store
/// answers it in SQL or PersistKit evaluates it in memory, and why. Made by
/// ``ManagedObjectContext/explain(_:)``.
///
/// ```swift
/// let explanation = try context.explain(FetchRequest<TaskItem>(predicate: \.due < cutoff))
/// print(explanation)
/// // fetch Task: in SQL (SQLite tests the predicate, sorts and windows the rows)
/// // SELECT "_pk", "_version", "name", ... FROM "Task" WHERE ("due" < ?1) ORDER BY "_pk"
/// // query plan:
/// //   SCAN Task
/// // scans Task, reading every row to test due: no index of Task starts with it
/// ```
public struct FetchExplanation: Sendable, Equatable, CustomStringConvertible {
    /// Where a fetch's predicate and sort run.
    public enum Evaluation: Sendable, Equatable {
        /// SQLite runs the predicate, the sort and the window: the store returns just the rows.
        case sql
        /// The predicate is too large for SQLite's parser: SQLite reads the rows and PersistKit's
        /// in-memory evaluator tests each one inside the statement (the `pk_predicate` SQL
        /// function); the sort and the window are still SQL.
        case evaluatorInSQL
        /// The store's rows come from SQL by their saved values, and the context's unsaved
        /// objects of the entity (inserted, changed or deleted) are tested, sorted and merged in
        /// memory (``FetchRequest/includesPendingChanges``).
        case sqlAndPendingChanges
    }

    /// The entity fetched.
    public let entityName: String
    /// The `SELECT` the store runs (its values bound as `?N` parameters, never inlined).
    public let sql: String
    /// How many values the statement binds.
    public let boundValueCount: Int
    /// SQLite's `EXPLAIN QUERY PLAN` for ``sql``, one step a line, indented by depth.
    public let queryPlan: [String]
    /// Where the predicate and sort run.
    public let evaluation: Evaluation
    /// Why they run there, in words.
    public let reason: String
    /// What the plan means for speed: each table read whole to test a condition, and whether an
    /// index could have been searched instead. Empty when nothing is read needlessly.
    public let notes: [String]

    /// The explanation as lines of text, as printed.
    public var description: String {
        let place: String
        switch evaluation {
        case .sql: place = "in SQL"
        case .evaluatorInSQL: place = "in memory, row by row inside SQL"
        case .sqlAndPendingChanges: place = "in SQL and in memory"
        }
        return (["fetch \(entityName): \(place) (\(reason))", sql, "query plan:"] + queryPlan.map { "  " + $0 } + notes)
            .joined(separator: "\n")
    }
}
