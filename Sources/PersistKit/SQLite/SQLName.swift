/// Quoting of SQL identifiers, so names like `order`, `group` or `Index` work.
enum SQLName {
    static func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A text literal: `'Dog'`.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
