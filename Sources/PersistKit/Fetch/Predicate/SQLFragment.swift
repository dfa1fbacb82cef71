/// One piece of a predicate's SQL, and what parsing it costs SQLite (see `PredicateSQLCompiler`).
struct SQLFragment {
    var sql: String
    /// Parser stack entries in use at most while parsing it.
    var stack: Int
    /// The height of its expression tree.
    var height: Int
}
