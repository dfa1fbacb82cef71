import Foundation
import TaskModel

/// Reads the values people type for tasks and dates, with the errors they should see.
enum Arguments {
    /// A task reference: `12` or `#12`.
    ///
    /// - Throws: a usage ``CommandError`` for anything else.
    static func reference(_ text: String) throws -> Int64 {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let number = Int64(digits) else {
            throw notAReference(text)
        }
        return number
    }

    /// The usage error for text that is not a task reference.
    static func notAReference(_ text: String) -> CommandError {
        CommandError.usage("'\(text)' is not a task reference (try 12 or '#12')")
    }

    /// A due date: the start of the day `text` names (see ``DueDateParser``).
    ///
    /// - Throws: a usage ``CommandError`` showing what is accepted.
    static func dueDate(_ text: String, parser: DueDateParser = DueDateParser()) throws -> Date {
        guard let date = parser.date(from: text) else {
            throw CommandError.usage("'\(text)' is not a date (try \(DueDateParser.examples))")
        }
        return date
    }
}
