import Foundation

/// One task in an export document: every value a task has, without its reference (a store
/// gives imported tasks references of its own).
///
/// ```json
/// {"backloggedAt": null, "completedAt": null, "createdAt": "2026-11-20T09:15:02.417Z",
///  "due": "2026-11-25", "isComplete": false, "name": "Buy milk", "notes": "Oat milk",
///  "plannedFor": "2026-11-21", "priority": "high", "project": "Home",
///  "remindAt": "2026-11-25T08:00:00.000Z", "tags": ["errands"], "attachments": []}
/// ```
/// `due` is a day (`2026-11-25`) or an instant (ISO 8601, UTC, milliseconds). `notes`, `due`,
/// `project`, `completedAt`, `remindAt`, `plannedFor` (the day whose plan the task is on) and
/// `backloggedAt` (when it went to the backlog) are `null` when the task has none; `tags` is
/// sorted; `attachments` lists the task's files in order, their bytes in base64
/// (``AttachmentRecord``).
public struct TaskRecord: Codable, Sendable, Hashable {
    /// The task's name.
    public var name: String
    /// The task's notes, nil for none.
    public var notes: String?
    /// The task's due day or time, nil for none.
    public var due: TaskDue?
    /// Whether the task is done.
    public var isComplete: Bool
    /// When the task was created.
    public var createdAt: Date
    /// The task's priority.
    public var priority: TaskPriority
    /// The name of the task's project, nil for none.
    public var project: String?
    /// The names of the task's tags.
    public var tags: [String]
    /// When the task was completed, nil when unknown or open.
    public var completedAt: Date?
    /// When to remind about the task, nil for no reminder.
    public var remindAt: Date?
    /// The day whose plan the task is on, nil for none (version 3).
    public var plannedFor: CalendarDay?
    /// When the task went to the backlog, nil when it is not there (version 3).
    public var backloggedAt: Date?
    /// The task's attachments, in order (version 3).
    public var attachments: [AttachmentRecord]

    /// A record with these values.
    public init(name: String, notes: String? = nil, due: TaskDue? = nil, isComplete: Bool = false, createdAt: Date,
                priority: TaskPriority = .normal, project: String? = nil, tags: [String] = [], completedAt: Date? = nil,
                remindAt: Date? = nil, plannedFor: CalendarDay? = nil, backloggedAt: Date? = nil,
                attachments: [AttachmentRecord] = []) {
        self.name = name
        self.notes = notes
        self.due = due
        self.isComplete = isComplete
        self.createdAt = createdAt
        self.priority = priority
        self.project = project
        self.tags = tags
        self.completedAt = completedAt
        self.remindAt = remindAt
        self.plannedFor = plannedFor
        self.backloggedAt = backloggedAt
        self.attachments = attachments
    }

    /// The record of a task's current values, its attachments' bytes read.
    ///
    /// - Throws: `PersistError` `.externalDataUnavailable` when an attachment's
    ///   file is missing or damaged (``Attachment/readContents()``).
    public init(_ task: TaskItem) throws {
        self.init(name: task.name, notes: task.notes, due: task.dueValue, isComplete: task.isComplete,
                  createdAt: task.createdAt, priority: task.priority, project: task.project?.name, tags: task.tagNames,
                  completedAt: task.completedAt, remindAt: task.remindAt, plannedFor: task.day?.calendarDay,
                  backloggedAt: task.isComplete ? nil : task.backloggedAt, attachments: try task.attachments.map(AttachmentRecord.init))
    }

    /// The record of a task whose labels were read with ``TaskStore/labels(of:)``.
    init(_ task: TaskItem, labels: TaskLabels) throws {
        self.init(name: task.name, notes: task.notes, due: task.dueValue, isComplete: task.isComplete,
                  createdAt: task.createdAt, priority: task.priority, project: labels.project(of: task),
                  tags: labels.tags(of: task), completedAt: task.completedAt, remindAt: task.remindAt,
                  plannedFor: labels.plannedDay(of: task), backloggedAt: task.isComplete ? nil : task.backloggedAt,
                  attachments: try task.attachments.map(AttachmentRecord.init))
    }

    private enum CodingKeys: String, CodingKey {
        case name, notes, due, isComplete, createdAt, priority, project, tags, completedAt, remindAt, plannedFor, backloggedAt
        case attachments
    }

    /// Reads a record; every key but `name` and `createdAt` may be missing (version 1 documents
    /// have only `notes`, `due` and `isComplete` besides; version 2 has no `plannedFor`,
    /// `backloggedAt` and `attachments`).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        notes = try container.decodeIfPresent(String.self, forKey: .notes)
        due = try Self.decodeDue(container)
        isComplete = try container.decodeIfPresent(Bool.self, forKey: .isComplete) ?? false
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        if let word = try container.decodeIfPresent(String.self, forKey: .priority) {
            guard let priority = TaskPriority(name: word) else {
                throw DecodingError.dataCorruptedError(forKey: .priority, in: container,
                    debugDescription: "'\(word)' is not a priority (low, normal or high)")
            }
            self.priority = priority
        } else {
            priority = .normal
        }
        project = try container.decodeIfPresent(String.self, forKey: .project)
        tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        completedAt = try container.decodeIfPresent(Date.self, forKey: .completedAt)
        remindAt = try container.decodeIfPresent(Date.self, forKey: .remindAt)
        if let text = try container.decodeIfPresent(String.self, forKey: .plannedFor) {
            guard let day = CalendarDay(isoText: text) else {
                throw DecodingError.dataCorruptedError(forKey: .plannedFor, in: container,
                    debugDescription: "'\(text)' is not a day (like 2026-11-25)")
            }
            plannedFor = day
        }
        backloggedAt = try container.decodeIfPresent(Date.self, forKey: .backloggedAt)
        attachments = try container.decodeIfPresent([AttachmentRecord].self, forKey: .attachments) ?? []
    }

    /// A day (`2026-11-25`) or an ISO 8601 instant.
    private static func decodeDue(_ container: KeyedDecodingContainer<CodingKeys>) throws -> TaskDue? {
        guard let text = try container.decodeIfPresent(String.self, forKey: .due) else { return nil }
        if let day = CalendarDay(isoText: text) { return .day(day) }
        if let instant = TaskDateCoding.date(from: text) { return .time(instant) }
        throw DecodingError.dataCorruptedError(forKey: .due, in: container,
            debugDescription: "'\(text)' is not a day (like 2026-11-25) or an ISO 8601 date and time (like 2026-11-25T09:30:00.000Z)")
    }

    /// Writes every key, `null` for a missing value, so the document's shape never varies.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(notes, forKey: .notes)
        switch due {
        case .day(let day)?: try container.encode(day.isoText, forKey: .due)
        case .time(let instant)?: try container.encode(TaskDateCoding.string(from: instant), forKey: .due)
        case nil: try container.encodeNil(forKey: .due)
        }
        try container.encode(isComplete, forKey: .isComplete)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(priority.name, forKey: .priority)
        try container.encode(project, forKey: .project)
        try container.encode(tags, forKey: .tags)
        try container.encode(completedAt, forKey: .completedAt)
        try container.encode(remindAt, forKey: .remindAt)
        try container.encode(plannedFor?.isoText, forKey: .plannedFor)
        try container.encode(backloggedAt, forKey: .backloggedAt)
        try container.encode(attachments, forKey: .attachments)
    }
}
