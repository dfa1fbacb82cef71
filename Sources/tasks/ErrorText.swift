import Foundation
import PersistKit

/// One-line explanations of PersistKit's errors, for people rather than programmers.
enum ErrorText {
    /// The line after `tasks: ` for an error raised while working on an open store.
    static func line(for error: PersistError) -> String {
        switch error.code {
        case .objectNotFound, .validation:
            // TaskModel words these for people already ("no task #42", "a task's name cannot be empty").
            return firstLine(error.problems.first ?? error.message)
        case .conflict:
            return "another tasks process changed this task meanwhile; nothing was saved, try again"
        case .cannotOpenStore where error.sqliteCode != nil:
            return "the task store is busy (another program is writing it); nothing was saved, try again"
        case .notADatabase:
            return "the task store is damaged: " + lowercasedFirst(firstLine(error.message))
        default:
            return lowercasedFirst(firstLine(error.message))
        }
    }

    /// The line after `tasks: ` for an error raised while opening the store at `path`.
    static func openingLine(for error: PersistError, path: String) -> String {
        switch error.code {
        case .notADatabase:
            return "\(path) is not a task store (not a database)"
        case .incompatibleModel:
            if let stored = error.storeVersion.flatMap({ Int($0) }), let current = error.modelVersion.flatMap({ Int($0) }),
               stored > current {
                return "\(path) was written by a newer version of tasks (model version \(stored); this one reads up to "
                    + "\(current)); it was left untouched"
            }
            if error.storeVersion != nil || error.entity != nil {   // a PersistKit store of another model (version or tables)
                return "\(path) was written with another model (another version of tasks, or another program); it was left untouched"
            }
            return "\(path) is not a task store (an SQLite database of another program)"
        case .cannotOpenStore:
            if let code = error.sqliteCode?.primary, code == SQLiteResultCode.busy || code == SQLiteResultCode.locked {
                return "the task store \(path) is busy (another program is writing it); try again"
            }
            return "cannot open the task store \(path): " + lowercasedFirst(firstLine(error.message))
        default:
            return "cannot open the task store \(path): " + line(for: error)
        }
    }

    /// The line after `tasks: ` for argument-parser's own usage error (its message, without
    /// the usage it prints after it): `unknown option '--bogus'`, the conflicting flags said as
    /// `tasks` says every conflict, and where the usage is shown.
    static func usageLine(parserMessage: String, helpCommand: String) -> String {
        var line = firstLine(parserMessage.hasPrefix("Error: ") ? String(parserMessage.dropFirst(7)) : parserMessage)
        // "Value to be set with flag '--completed' had already been set with flag '--incomplete'"
        let conflict = line.split(separator: "'", omittingEmptySubsequences: false)
        if line.hasPrefix("Value to be set with flag '"), line.contains("had already been set with flag"), conflict.count >= 5 {
            line = "\(conflict[3]) and \(conflict[1]) cannot be used together"
        }
        // "Unknown option '--no-project'. Did you mean '--project'?": one sentence.
        line = line.replacingOccurrences(of: ". Did you mean ", with: "; did you mean ")
        return lowercasedFirst(line) + " (see \(helpCommand) --help)"
    }

    static func firstLine(_ text: String) -> String {
        String(text.split(whereSeparator: \.isNewline).first ?? "")
    }

    static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first, first.isUppercase,
              text.dropFirst().first.map({ !$0.isUppercase }) ?? true else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
