// The SQL a predicate compiles to is the store's business: its description lives here.
extension FetchPredicate: CustomStringConvertible {
    /// The predicate as SQL, with its bound values.
    public var description: String {
        guard let entity = FetchPredicate.defaultEntity(),
              let compiled = try? PredicateSQLCompiler.compile(node, entity: entity) else {
            return "FetchPredicate<\(Root.self)>"
        }
        return compiled.sql + (compiled.bindings.isEmpty ? "" : " " + compiled.bindings.description)
    }
}
