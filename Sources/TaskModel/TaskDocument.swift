import Foundation
import PersistKit

/// An export of a task store: every task, as JSON with ISO 8601 dates (UTC, milliseconds).
///
/// ```json
/// {
///   "exportedAt" : "2026-11-21T17:02:11.512Z",
///   "format" : "tasks",
///   "tasks" : [
///     { "createdAt" : "2026-11-20T09:15:02.417Z", "due" : null, "isComplete" : false,
///       "name" : "Buy milk", "notes" : null }
///   ],
///   "version" : 1
/// }
/// ```
///
/// Tasks are listed in list order. Make one with ``TaskStore/exportDocument()``; read one with
/// ``init(data:)`` or ``TaskStore/importDocument(_:duplicates:)``.
public struct TaskDocument: Codable, Sendable, Hashable {
    /// The value of `format` in every task export.
    public static let formatName = "tasks"
    /// The document version this TaskModel writes and the newest it reads.
    public static let currentVersion = 1

    /// Always ``formatName``: tells a task export from other JSON.
    public var format: String
    /// The document version, ``currentVersion`` when written by this TaskModel.
    public var version: Int
    /// When the export was made.
    public var exportedAt: Date
    /// The tasks.
    public var tasks: [TaskRecord]

    /// A document of these tasks.
    public init(tasks: [TaskRecord], exportedAt: Date = Date()) {
        format = TaskDocument.formatName
        version = TaskDocument.currentVersion
        self.exportedAt = TaskDateCoding.normalized(exportedAt)
        self.tasks = tasks
    }

    /// Reads a document from JSON.
    ///
    /// - Throws: ``PersistKit/PersistError`` `.typeMismatch` saying why the data is not a task
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

    /// The document as pretty-printed JSON with sorted keys: the same tasks give the same text.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(TaskDateCoding.string(from: date))
        }
        // Strings, booleans and dates already turned into strings always encode.
        return (try? encoder.encode(self)) ?? Data()
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
                words.append(list == "tasks" ? "task \(index + 1)" : "item \(index + 1) of \(list ?? "the document")")
            }
            return words.isEmpty ? "the document" : words.reversed().joined(separator: " of ")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(place(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            return "\(place(context.codingPath)) should be \(describe(type))"
        case .valueNotFound(let type, let context):
            return "\(place(context.codingPath)) should be \(describe(type)), not null"
        case .dataCorrupted(let context):
            return "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is Date.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type: return "a number"
        default: return type == [TaskRecord].self ? "a list of tasks" : "a \(type)"
        }
    }
}
