import Foundation
import TaskModel

/// The JSON of `tasks list --json` (and `show --json`): one stable shape, every key always
/// present, `null` for a missing value.
///
/// ```json
/// {"sections": [{"name": "Incomplete", "count": 1, "tasks": [
///     {"ref": 2, "name": "Buy milk", "notes": null, "due": "2026-11-25", "dueStatus": "tomorrow",
///      "isComplete": false, "createdAt": "2026-11-20T09:15:02.417Z"}]}]}
/// ```
/// - `sections`: the sections the filter shows, in order ("Incomplete", "Complete"), even when
///   empty; `count` is the number of tasks in it.
/// - `ref`: the task's number (`#2` is 2). `due`: the local calendar day, or null.
///   `dueStatus`: "overdue", "today", "tomorrow" or "later" for open dated tasks, else null.
///   `createdAt`: ISO 8601 in UTC with milliseconds.
struct TaskJSON: Encodable {
    let sections: [Section]

    struct Section: Encodable {
        let name: String
        let count: Int
        let tasks: [Row]
    }

    struct Row: Encodable {
        let ref: Int64
        let name: String
        let notes: String?
        let due: String?
        let dueStatus: String?
        let isComplete: Bool
        let createdAt: String

        init(_ task: TaskItem, dates: DateText) {
            ref = task.referenceNumber ?? 0
            name = task.name
            notes = task.notes
            due = task.due.map(dates.isoDay)
            dueStatus = task.dueStatus(now: dates.now, calendar: dates.calendar)?.rawValue
            isComplete = task.isComplete
            createdAt = TaskDateCoding.string(from: task.createdAt)
        }

        private enum CodingKeys: String, CodingKey {
            case ref, name, notes, due, dueStatus, isComplete, createdAt
        }

        // Written by hand so that nil values appear as null instead of vanishing.
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(ref, forKey: .ref)
            try container.encode(name, forKey: .name)
            try container.encode(notes, forKey: .notes)
            try container.encode(due, forKey: .due)
            try container.encode(dueStatus, forKey: .dueStatus)
            try container.encode(isComplete, forKey: .isComplete)
            try container.encode(createdAt, forKey: .createdAt)
        }
    }

    /// Pretty-printed, keys sorted.
    static func text(of value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Only strings, numbers, booleans and nulls: encoding cannot fail.
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
