import Foundation
import TaskModel

/// The JSON of `tasks list --json` (and `show --json`): one stable shape, every key always
/// present, `null` for a missing value.
///
/// ```json
/// {"sections": [{"name": "Incomplete", "count": 1, "tasks": [
///     {"ref": 2, "name": "Buy milk", "notes": null, "due": "2026-11-25", "dueAt": null,
///      "dueStatus": "tomorrow", "isComplete": false, "createdAt": "2026-11-20T09:15:02.417Z",
///      "completedAt": null, "priority": "normal", "project": "Home", "tags": ["errands"],
///      "remindAt": null, "plannedFor": "2026-11-21", "backloggedAt": null}]}]}
/// ```
/// - `sections`: the sections the filter shows, in order ("Incomplete", "Complete"), even when
///   empty; `count` is the number of tasks in it.
/// - `ref`: the task's number (`#2` is 2). `due`: the calendar day it is due, or null.
///   `dueAt`: the instant of a due with a time of day, null for a due day (or none).
///   `dueStatus`: "overdue", "today", "tomorrow" or "later" for open dated tasks, else null.
///   `createdAt`, `completedAt`, `remindAt`: ISO 8601 in UTC with milliseconds, or null.
///   `priority`: "low", "normal" or "high". `project`: its name or null. `tags`: names, sorted.
///   `plannedFor`: the day whose plan the task is on, or null. `backloggedAt`: when an open
///   task went to the backlog, or null when it is not there.
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
        let dueAt: String?
        let dueStatus: String?
        let isComplete: Bool
        let createdAt: String
        let completedAt: String?
        let priority: String
        let project: String?
        let tags: [String]
        let remindAt: String?
        let plannedFor: String?
        let backloggedAt: String?

        init(_ task: TaskItem, dates: DateText, labels: TaskLabels) {
            ref = task.referenceNumber ?? 0
            name = task.name
            notes = task.notes
            due = dates.isoDueDay(of: task)
            dueAt = task.dueIsDay ? nil : task.due.map(TaskDateCoding.string)
            dueStatus = task.dueStatus(now: dates.now, calendar: dates.calendar)?.rawValue
            isComplete = task.isComplete
            createdAt = TaskDateCoding.string(from: task.createdAt)
            completedAt = task.completedAt.map(TaskDateCoding.string)
            priority = task.priority.name
            project = labels.project(of: task)
            tags = labels.tags(of: task)
            remindAt = task.remindAt.map(TaskDateCoding.string)
            plannedFor = labels.plannedDay(of: task)?.isoText
            backloggedAt = task.isComplete ? nil : task.backloggedAt.map(TaskDateCoding.string)
        }

        private enum CodingKeys: String, CodingKey {
            case ref, name, notes, due, dueAt, dueStatus, isComplete, createdAt, completedAt, priority, project, tags, remindAt
            case plannedFor, backloggedAt
        }

        // Written by hand so that nil values appear as null instead of vanishing.
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(ref, forKey: .ref)
            try container.encode(name, forKey: .name)
            try container.encode(notes, forKey: .notes)
            try container.encode(due, forKey: .due)
            try container.encode(dueAt, forKey: .dueAt)
            try container.encode(dueStatus, forKey: .dueStatus)
            try container.encode(isComplete, forKey: .isComplete)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(completedAt, forKey: .completedAt)
            try container.encode(priority, forKey: .priority)
            try container.encode(project, forKey: .project)
            try container.encode(tags, forKey: .tags)
            try container.encode(remindAt, forKey: .remindAt)
            try container.encode(plannedFor, forKey: .plannedFor)
            try container.encode(backloggedAt, forKey: .backloggedAt)
        }
    }
}
