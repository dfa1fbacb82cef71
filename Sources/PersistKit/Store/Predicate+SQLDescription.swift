// The SQL a predicate compiles to is the store's business: its description lives here.
extension Predicate: CustomStringConvertible {
    /// The predicate as SQL, with its bound values.
    public var description: String {
        guard let entity = Predicate.defaultEntity(),
              let compiled = try? PredicateSQLCompiler.compile(node, entity: entity) else {
            return "Predicate<\(Root.self)>"
        }
        return compiled.sql + (compiled.bindings.isEmpty ? "" : " " + compiled.bindings.description)
    }
}
