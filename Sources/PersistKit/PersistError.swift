import Foundation

/// The one error type PersistKit throws.
///
/// Its ``code`` says what kind of problem it is; its description names everything involved that
/// is known: the entity, the attribute, the object, the SQL and SQLite's extended result code.
///
/// ```swift
/// do { try context.save() }
/// catch let error as PersistError where error.code == .validation { print(error) }
/// ```
public struct PersistError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem an error is.
    public enum Code: String, Sendable, Hashable {
        /// SQLite reported an error; see ``PersistError/sqliteCode`` and ``PersistError/sql``.
        case sqlite
        /// The file is not an SQLite database (or is damaged).
        case notADatabase
        /// The store could not be opened: missing directory, no permission, locked.
        case cannotOpenStore
        /// The store was written with another model.
        case incompatibleModel
        /// The model is invalid: duplicate entity, bad name, unsupported type.
        case invalidModel
        /// A predicate format string has a syntax error, an unknown key, or a value of the wrong type.
        case invalidPredicate
        /// A fetch request is invalid: no such key, a sort it cannot do.
        case invalidRequest
        /// An object failed validation before a save; ``PersistError/problems`` lists every problem.
        case validation
        /// A uniqueness or other constraint of the store failed.
        case constraintViolation
        /// Another context (or process) changed or deleted the object since this context read it.
        case conflict
        /// A value read from the store does not fit the attribute's declared type.
        case typeMismatch
        /// A key is not an attribute of the entity.
        case unknownKey
        /// No object with that ID exists in the store.
        case objectNotFound
        /// The object was deleted, or belongs to another context, or to none.
        case invalidObject
        /// The API was used in a way it does not support (for example, a fetch controller
        /// without sort descriptors).
        case misuse
    }

    /// What kind of problem this is.
    public var code: Code
    /// A one-sentence explanation.
    public var message: String
    /// The entity involved, if any.
    public var entity: String?
    /// The attribute (key) involved, if any.
    public var attribute: String?
    /// The objects involved, if any.
    public var objectIDs: [ObjectID]
    /// The SQL statement involved, if any.
    public var sql: String?
    /// SQLite's extended result code, if SQLite reported the error.
    public var sqliteCode: Int32?
    /// For validation errors: every problem found, one sentence each.
    public var problems: [String]
    /// The store file involved, if any.
    public var store: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, entity: String? = nil, attribute: String? = nil,
                objectIDs: [ObjectID] = [], sql: String? = nil, sqliteCode: Int32? = nil,
                problems: [String] = []) {
        self.code = code
        self.message = message
        self.entity = entity
        self.attribute = attribute
        self.objectIDs = objectIDs
        self.sql = sql
        self.sqliteCode = sqliteCode
        self.problems = problems
        store = nil
    }

    /// The message followed by everything known about where the problem is.
    public var description: String {
        var text = message
        var context: [String] = []
        if let entity { context.append("entity: \(entity)") }
        if let attribute { context.append("attribute: \(attribute)") }
        if !objectIDs.isEmpty { context.append("objects: " + objectIDs.map(\.description).joined(separator: ", ")) }
        if let store { context.append("store: \(store)") }
        if let sqliteCode { context.append("SQLite code: \(sqliteCode)") }
        if let sql { context.append("SQL: \(sql)") }
        if !context.isEmpty { text += " (" + context.joined(separator: "; ") + ")" }
        if problems.count > 1 { text += "\n" + problems.map { "  - " + $0 }.joined(separator: "\n") }
        return text
    }
}

extension PersistError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
