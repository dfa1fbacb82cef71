/// How an error message names a key path: as Swift prints it when that names its properties
/// (`\Book.title`), else by what PersistKit knows of it (`\Book.author.name`, or "a computed
/// property of Book"), never by the address Swift prints for a property it cannot name
/// (`\Book.<computed 0x000055e3f6b51540 (Int)>`).
enum KeyPathDescription {
    /// `keyPath`, rooted at `entity`'s class; `knownPath` is what PersistKit found it reads
    /// (`author.name`), when it found that.
    static func of(_ keyPath: AnyKeyPath, entity: EntityDescription, knownPath: String? = nil) -> String {
        let printed = String(reflecting: keyPath)
        if !printed.contains("<") { return printed }
        if let knownPath, !knownPath.isEmpty { return "\\\(entity.objectClass).\(knownPath)" }
        return "a computed property of \(entity.objectClass)"
    }

    /// `keyPath` rooted at `Root`, for key paths of a class that is not an entity class.
    static func of(_ keyPath: AnyKeyPath, root: Any.Type) -> String {
        let printed = String(reflecting: keyPath)
        return printed.contains("<") ? "a key path of \(root)" : printed
    }
}
