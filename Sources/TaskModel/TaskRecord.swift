import Foundation

/// One task in an export document: every value a task has, without its reference (a store
/// gives imported tasks references of its own).
///
/// ```json
/// {"createdAt": "2026-11-20T09:15:02.417Z", "due": "2026-11-24T23:00:00.000Z",
///  "isComplete": false, "name": "Buy milk", "notes": "Oat milk"}
/// ```
/// `notes` and `due` are `null` when the task has none.
public struct TaskRecord: Codable, Sendable, Hashable {
    /// The task's name.
    public var name: String
    /// The task's notes, nil for none.
    public var notes: String?
    /// The task's due date, nil for none.
    public var due: Date?
    /// Whether the task is done.
    public var isComplete: Bool
    /// When the task was created.
    public var createdAt: Date

    /// A record with these values.
    public init(name: String, notes: String? = nil, due: Date? = nil, isComplete: Bool = false, createdAt: Date) {
        self.name = name
        self.notes = notes
        self.due = due
        self.isComplete = isComplete
        self.createdAt = createdAt
    }

    /// The record of a task's current values.
    public init(_ task: TaskItem) {
        self.init(name: task.name, notes: task.notes, due: task.due, isComplete: task.isComplete, createdAt: task.createdAt)
    }

    private enum CodingKeys: String, CodingKey {
        case name, notes, due, isComplete, createdAt
    }

    /// Reads a record; `notes`, `due` and `isComplete` may be missing (nil, nil, false).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        notes = try container.decodeIfPresent(String.self, forKey: .notes)
        due = try container.decodeIfPresent(Date.self, forKey: .due)
        isComplete = try container.decodeIfPresent(Bool.self, forKey: .isComplete) ?? false
        createdAt = try container.decode(Date.self, forKey: .createdAt)
    }

    /// Writes every key, `null` for a missing value, so the document's shape never varies.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(notes, forKey: .notes)
        try container.encode(due, forKey: .due)
        try container.encode(isComplete, forKey: .isComplete)
        try container.encode(createdAt, forKey: .createdAt)
    }
}
