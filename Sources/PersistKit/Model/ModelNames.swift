import Foundation

/// Which entity and attribute names SQLite and PersistKit can take.
enum ModelNames {
    static func problem(withEntityName name: String) -> String? {
        if name.isEmpty { return "An entity name cannot be empty" }
        if name.lowercased().hasPrefix("sqlite_") { return "Entity name \(name) is reserved by SQLite (names starting with sqlite_)" }
        if name.hasPrefix("_") { return "Entity name \(name) is reserved: names starting with _ are PersistKit's" }
        if name.unicodeScalars.contains(where: { $0.value == 0 || $0 == "\"" }) {
            return "Entity name \(name) contains a character SQLite cannot take in a name"
        }
        return nil
    }

    static func problem(withAttributeName name: String) -> String? {
        if name.isEmpty { return "An attribute name cannot be empty" }
        if name.hasPrefix("_") { return "Attribute name \(name) is reserved: names starting with _ are PersistKit's" }
        if name.unicodeScalars.contains(where: { $0.value == 0 || $0 == "\"" }) {
            return "Attribute name \(name) contains a character SQLite cannot take in a name"
        }
        return nil
    }
}
