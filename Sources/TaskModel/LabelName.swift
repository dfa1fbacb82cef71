import Foundation
import PersistKit

/// The rules for project and tag names, and how typed names are cleaned.
enum LabelName {
    enum Kind {
        case project, tag

        var entityName: String { self == .project ? Project.entityName : Tag.entityName }
        var noun: String { self == .project ? "project" : "tag" }
    }

    /// A typed name trimmed; for a tag, without a leading `#`.
    static func clean(_ name: String, kind: Kind) -> String {
        var text = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if kind == .tag, text.hasPrefix("#") {
            text = String(text.dropFirst()).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return text
    }

    /// Checks a cleaned name.
    ///
    /// - Throws: `PersistError` `.validation` naming the problem.
    static func validate(_ name: String, kind: Kind) throws {
        func refuse(_ problem: String) -> PersistError {
            PersistError(.validation, "a \(kind.noun)'s name " + problem, entity: kind.entityName, attribute: "name")
        }
        if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw refuse("cannot be empty") }
        if name.count > Project.maximumNameLength {
            throw refuse("can be at most \(Project.maximumNameLength) characters (this one has \(name.count))")
        }
        if name.contains(where: \.isNewline) { throw refuse("must be one line") }
        if name != name.trimmingCharacters(in: .whitespacesAndNewlines) { throw refuse("cannot begin or end with spaces") }
        if kind == .tag {
            if name.contains(where: \.isWhitespace) { throw refuse("cannot contain spaces") }
            if name.hasPrefix("#") { throw refuse("cannot begin with #") }
        }
    }
}
