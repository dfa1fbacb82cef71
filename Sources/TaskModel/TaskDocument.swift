import Foundation
import PersistKit

/// An export of a task store: every task, project and tag, the days reviewed and the daily
/// limits, as JSON with ISO 8601 instants (UTC, milliseconds).
///
/// ```json
/// {
///   "exportedAt" : "2026-11-21T17:02:11.512Z",
///   "format" : "tasks",
///   "limits" : { "high" : 1, "low" : 5, "normal" : 3 },
///   "projects" : [ "Home" ],
///   "reviews" : [
///     { "backlogged" : 1, "carried" : 0, "completed" : 2, "day" : "2026-11-20", "planned" : 3,
///       "projects" : [ { "completed" : 2, "planned" : 3, "project" : "Home" } ],
///       "reviewedAt" : "2026-11-20T18:00:00.000Z" }
///   ],
///   "tags" : [ "errands" ],
///   "tasks" : [
///     { "attachments" : [
///         { "contents" : "iVBORw0KGgo...", "createdAt" : "2026-11-20T09:20:00.000Z",
///           "fileName" : "receipt.png", "mediaType" : "image/png", "size" : 48213 }
///       ],
///       "backloggedAt" : null, "completedAt" : null, "createdAt" : "2026-11-20T09:15:02.417Z",
///       "due" : "2026-11-25", "isComplete" : false, "name" : "Buy milk", "notes" : null,
///       "plannedFor" : "2026-11-21", "priority" : "normal", "project" : "Home", "remindAt" : null,
///       "tags" : [ "errands" ] }
///   ],
///   "version" : 3
/// }
/// ```
///
/// Tasks are listed in list order; `projects` and `tags` list every project and tag by name,
/// those without tasks too; `reviews` every day reviewed, oldest first (``DayReview``); each
/// task's `attachments` hold their bytes in base64 (``AttachmentRecord``).
/// Version 1 documents (no projects, tags, priorities, completion or reminder times; every due
/// an instant) and version 2 (no day plan) are read too. Make one with
/// ``TaskStore/exportDocument()``; read one with ``init(data:)`` or
/// ``TaskStore/importDocument(_:duplicates:)``.
public struct TaskDocument: Codable, Sendable, Hashable {
    /// The value of `format` in every task export.
    public static let formatName = "tasks"
    /// The document version this TaskModel writes and the newest it reads.
    public static let currentVersion = 3

    /// Always ``formatName``: tells a task export from other JSON.
    public var format: String
    /// The document version, ``currentVersion`` when written by this TaskModel.
    public var version: Int
    /// When the export was made.
    public var exportedAt: Date
    /// The tasks.
    public var tasks: [TaskRecord]
    /// Every project's name (empty in version 1 documents).
    public var projects: [String]
    /// Every tag's name (empty in version 1 documents).
    public var tags: [String]
    /// The days reviewed, oldest first (empty before version 3).
    public var reviews: [DayReview]
    /// The store's daily limits (nil before version 3); an import applies them to a store it
    /// restores into, one that had no task and no day.
    public var limits: DayLimits?

    /// A document of these tasks, projects, tags, reviews and limits.
    public init(tasks: [TaskRecord], projects: [String] = [], tags: [String] = [], reviews: [DayReview] = [],
                limits: DayLimits? = nil, exportedAt: Date = Date()) {
        format = TaskDocument.formatName
        version = TaskDocument.currentVersion
        self.exportedAt = TaskDateCoding.normalized(exportedAt)
        self.tasks = tasks
        self.projects = projects
        self.tags = tags
        self.reviews = reviews
        self.limits = limits
    }

    private enum CodingKeys: String, CodingKey {
        case format, version, exportedAt, tasks, projects, tags, reviews, limits
    }

    /// Reads the document's values (after ``init(data:)`` checked its format and version);
    /// `projects`, `tags`, `reviews` and `limits` may be missing.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        version = try container.decode(Int.self, forKey: .version)
        exportedAt = try container.decode(Date.self, forKey: .exportedAt)
        tasks = try container.decode([TaskRecord].self, forKey: .tasks)
        projects = try container.decodeIfPresent([String].self, forKey: .projects) ?? []
        tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        reviews = try container.decodeIfPresent([DayReview].self, forKey: .reviews) ?? []
        limits = try container.decodeIfPresent(DayLimits.self, forKey: .limits)
    }

    /// Writes every key, `null` for no limits, so the document's shape never varies.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(version, forKey: .version)
        try container.encode(exportedAt, forKey: .exportedAt)
        try container.encode(tasks, forKey: .tasks)
        try container.encode(projects, forKey: .projects)
        try container.encode(tags, forKey: .tags)
        try container.encode(reviews, forKey: .reviews)
        try container.encode(limits, forKey: .limits)
    }

    /// Reads a document from JSON.
    ///
    /// - Throws: `PersistError` `.typeMismatch` saying why the data is not a task
    ///   export (not JSON, another format, a newer version, a missing or wrong value and where).
    public init(data: Data) throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = TaskDateCoding.date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container,
                    debugDescription: "'\(text)' is not an ISO 8601 date and time (like 2026-11-25T09:30:00.000Z)")
            }
            return date
        }
        // The format and version are checked first, so that other JSON gets a clear message.
        struct Header: Decodable {
            var format: String?
            var version: Int?
        }
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: data)
        } catch {
            throw PersistError(.typeMismatch, "not a task export (not a JSON object)")
        }
        guard header.format == TaskDocument.formatName else {
            throw PersistError(.typeMismatch, "not a task export (its \"format\" is not \"\(TaskDocument.formatName)\")")
        }
        guard let version = header.version, version >= 1 else {
            throw PersistError(.typeMismatch, "not a task export (it has no valid \"version\")")
        }
        guard version <= TaskDocument.currentVersion else {
            throw PersistError(.typeMismatch,
                "a task export of version \(version), newer than this version reads (\(TaskDocument.currentVersion))")
        }
        do {
            self = try decoder.decode(TaskDocument.self, from: data)
        } catch let error as DecodingError {
            throw PersistError(.typeMismatch, "not a valid task export (\(TaskDocument.explain(error)))")
        }
    }

    /// The tasks as an import adds them: in a version 1 document, hashtags in names and notes
    /// (`Buy milk #errands`) become tags.
    var importedRecords: [TaskRecord] {
        guard version < 2 else { return tasks }
        return tasks.map { record in
            var record = record
            record.tags = Hashtags.names(name: record.name, notes: record.notes)
            return record
        }
    }

    /// Checks every task, project and tag name as an import checks them (trimmed first), so
    /// that a bad document can be refused before any store is opened.
    ///
    /// ```swift
    /// let document = try TaskDocument(data: data)
    /// try document.validate()     // "not a valid task export (task 2: a task's name cannot be empty)"
    /// ```
    ///
    /// - Throws: `PersistError` `.validation`, its message
    ///   `not a valid task export (WHAT: PROBLEM)`, the tasks, projects and tags counted from 1.
    public func validate() throws {
        do {
            _ = try TaskStore.cleanRecords(importedRecords)
            _ = try TaskStore.cleanLabels(projects, kind: .project)
            _ = try TaskStore.cleanLabels(tags, kind: .tag)
            var days = Set<CalendarDay>()
            for (index, review) in reviews.enumerated() {
                if let problem = review.problem {
                    throw PersistError(.validation, "review \(index + 1): \(problem)", entity: Day.entityName)
                }
                guard days.insert(review.day).inserted else {
                    throw PersistError(.validation, "review \(index + 1): \(review.day.isoText) is reviewed twice", entity: Day.entityName)
                }
            }
            if let limits {
                for priority in TaskPriority.allCases.reversed() where !DayLimits.allowed.contains(limits[priority]) {
                    throw PersistError(.validation, "limits: the \(priority.name)-priority limit must be from "
                                       + "\(DayLimits.allowed.lowerBound) to \(DayLimits.allowed.upperBound), not \(limits[priority])",
                                       entity: StoreInfo.entityName)
                }
            }
        } catch var error as PersistError where error.code == .validation {
            error.message = "not a valid task export (\(error.message))"
            throw error
        }
    }

    /// The document as pretty-printed JSON with sorted keys: the same tasks give the same text.
    public func encoded() -> Data {
        // Strings, booleans and dates already turned into strings always encode.
        (try? TaskJSONText.data(of: self)) ?? Data()
    }

    /// A one-phrase account of a decoding error: where, and what was wrong.
    static func explain(_ error: DecodingError) -> String {
        // "createdAt of task 1": people count from 1, as the validation messages do.
        func place(_ path: [CodingKey]) -> String {
            var words: [String] = []
            for key in path {
                guard let index = key.intValue else {
                    words.append(key.stringValue)
                    continue
                }
                let list = words.popLast()
                switch list {
                case "tasks": words.append("task \(index + 1)")
                case "reviews": words.append("review \(index + 1)")
                case "attachments": words.append("attachment \(index + 1)")
                default: words.append("item \(index + 1) of \(list ?? "the document")")
                }
            }
            return words.isEmpty ? "the document" : words.reversed().joined(separator: " of ")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(place(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            return "\(place(context.codingPath)) should be \(describe(type, at: context.codingPath.last))"
        case .valueNotFound(let type, let context):
            return "\(place(context.codingPath)) should be \(describe(type, at: context.codingPath.last)), not null"
        case .dataCorrupted(let context):
            return "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func describe(_ type: Any.Type, at key: CodingKey?) -> String {
        switch type {
        case is String.Type, is Date.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type: return "a number"
        case is [TaskRecord].Type: return "a list of tasks"
        case is [String].Type: return "a list of strings"
        // A list is asked for as Array<Any> before its elements' type is known: the key tells.
        case is [DayReview].Type: return "a list of reviews"
        case is [AttachmentRecord].Type: return "a list of attachments"
        case is DayLimits.Type: return "an object of limits"
        case is [Any].Type:
            switch key?.stringValue {
            case "tasks": return "a list of tasks"
            case "reviews": return "a list of reviews"
            case "attachments": return "a list of attachments"
            default: return "a list of strings"
            }
        default: return "a \(type)"
        }
    }
}
