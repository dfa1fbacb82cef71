import Foundation
import PersistKit
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

    /// Task references as typed (`12`, `#12`), each once, in the order given.
    ///
    /// - Throws: a usage ``CommandError`` for one that is not a reference.
    static func references(_ texts: [String]) throws -> [Int64] {
        var numbers: [Int64] = []
        for text in texts {
            let number = try reference(text)
            if !numbers.contains(number) { numbers.append(number) }
        }
        return numbers
    }

    /// An attachment's number, counted from 1 as `tasks attachments REF` shows them.
    ///
    /// - Throws: a usage ``CommandError`` for anything else.
    static func attachmentNumber(_ text: String) throws -> Int {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text), number >= 1 else {
            throw CommandError.usage("'\(text)' is not an attachment number (try 1: tasks attachments REF lists them)")
        }
        return number
    }

    /// A due: the calendar day `text` names, or a day and a time (see ``DueDateParser``).
    ///
    /// - Throws: a usage ``CommandError`` showing what is accepted.
    static func due(_ text: String, parser: DueDateParser = DueDateParser(now: Clock.now())) throws -> TaskDue {
        guard let due = parser.due(from: text) else {
            throw CommandError.usage("'\(text)' is not a date (try \(DueDateParser.examples))")
        }
        return due
    }

    /// A calendar day (`--day`): `2026-11-25`, `today`, `tomorrow`, `+3d`, `friday`.
    ///
    /// - Throws: a usage ``CommandError`` showing what is accepted.
    static func day(_ text: String, parser: DueDateParser = DueDateParser(now: Clock.now())) throws -> CalendarDay {
        guard let day = parser.day(from: text) else {
            throw CommandError.usage("'\(text)' is not a day (try \(DueDateParser.examples))")
        }
        return day
    }

    /// A reminder time: a day and a time of day, a time today, or an offset from now.
    ///
    /// - Throws: a usage ``CommandError`` showing what is accepted; a day without a time is
    ///   refused with a hint, not given an arbitrary hour.
    static func remindTime(_ text: String, parser: DueDateParser = DueDateParser(now: Clock.now())) throws -> Date {
        if let date = parser.dateTime(from: text) { return date }
        if parser.day(from: text) != nil {
            let day = text.trimmingCharacters(in: .whitespaces)
            throw CommandError.usage("'\(text)' has no time of day (try '\(day) 9am' or '\(day) 14:30')")
        }
        throw CommandError.usage("'\(text)' is not a date and time (try \(DueDateParser.timeExamples))")
    }

    /// A priority: low, normal or high.
    ///
    /// - Throws: a usage ``CommandError`` naming the three.
    static func priority(_ text: String) throws -> TaskPriority {
        guard let priority = TaskPriority(name: text.trimmingCharacters(in: .whitespaces)) else {
            throw CommandError.usage("'\(text)' is not a priority (try low, normal or high)")
        }
        return priority
    }

    /// Checks the names an add or an edit would set (the task's, a project's, tags') before
    /// any store is opened: a bad one is bad usage, like a malformed date.
    ///
    /// - Throws: a usage ``CommandError`` with TaskModel's words: `a tag's name cannot contain spaces`.
    static func check(_ changes: TaskChanges) throws {
        do {
            try changes.validate()
        } catch let error as PersistError where error.code == .validation {
            throw CommandError.usage(ErrorText.line(for: error))
        }
    }
}
