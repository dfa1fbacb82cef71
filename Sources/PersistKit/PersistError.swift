import Foundation

/// The one error type PersistKit throws.
///
/// Its ``reason`` says what went wrong and names what is involved (the entity, the key, the
/// objects, the store file); ``sqliteCode`` carries SQLite's primary and extended result code
/// when SQLite produced the error, and ``sql`` the statement. Its ``description`` is one
/// sentence followed by everything known about where the problem is.
///
/// ```swift
/// do { try context.save() }
/// catch let error as PersistError {
///     switch error.reason {
///     case .validation(_, _, let problems): show(problems)
///     case .conflict(let entity, let objects): retry(entity, objects)
///     default: print(error)
///     }
/// }
/// ```
public struct PersistError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem an error is: ``reason`` without its associated values, for `==`.
    ///
    /// ```swift
    /// catch let error as PersistError where error.code == .constraintViolation { ... }
    /// ```
    public enum Code: String, Sendable, Hashable {
        /// SQLite reported an error; see ``PersistError/sqliteCode`` and ``PersistError/sql``.
        case sqlite
        /// The file is not an SQLite database (or is damaged).
        case notADatabase
        /// The store could not be opened: a directory that cannot be made, no permission, locked.
        case cannotOpenStore
        /// The store was written with another model.
        case incompatibleModel
        /// The model is invalid: duplicate entity, bad name, unsupported type.
        case invalidModel
        /// A predicate has a syntax error, an unknown key, or a value of the wrong type.
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
        /// The persistent history after a token was purged: what changed since then can no
        /// longer be told, only read again.
        case historyExpired
        /// A value kept outside the database (`.externalStorage`) cannot be read: its file is
        /// missing, damaged, or was replaced by another context's save since the object was read.
        case externalDataUnavailable
        /// Syncing with a server failed: it could not be reached, refused the space or the
        /// model version, or answered with an error (PersistKitSync). Local changes stay queued.
        case sync
    }

    /// What went wrong, with what is involved.
    ///
    /// Each case names what is known: the entity, the key (attribute), the objects, the store
    /// file. The same facts are also in the error's plain properties (``entity``, ``attribute``,
    /// ``objectIDs``, ``store``), which every reason may carry.
    ///
    /// ```swift
    /// if case .constraintViolation(let entity, let keys, let objects) = error.reason {
    ///     print("\(entity ?? "?"): \(keys) must be unique; \(objects.count) objects share them")
    /// }
    /// ```
    public enum Reason: Sendable, Equatable {
        /// SQLite reported an error not covered by a more specific reason.
        case sqlite(SQLiteResultCode?, sql: String?)
        /// The file is not an SQLite database, or is damaged.
        case notADatabase(file: String?)
        /// The store could not be opened or written: a directory that cannot be made, no permission, a lock.
        case cannotOpenStore(file: String?)
        /// The store was written with another model (or format); both versions are named when known.
        case incompatibleModel(file: String?, storeVersion: String?, modelVersion: String?)
        /// The model is invalid.
        case invalidModel(entity: String?, key: String?)
        /// A predicate cannot be built or run; `position` is the offset of a format-string error.
        case invalidPredicate(entity: String?, key: String?, position: Int?)
        /// A fetch request is invalid.
        case invalidRequest(entity: String?, key: String?)
        /// Objects failed validation before a save; one sentence per problem.
        case validation(entity: String?, objects: [ObjectID], problems: [String])
        /// A uniqueness or other constraint failed.
        case constraintViolation(entity: String?, keys: [String], objects: [ObjectID])
        /// Objects were changed or deleted elsewhere since this context read them.
        case conflict(entity: String?, objects: [ObjectID])
        /// A stored value does not fit its attribute's declared type.
        case typeMismatch(entity: String?, key: String?, objects: [ObjectID])
        /// A key is not an attribute of the entity.
        case unknownKey(entity: String?, key: String?)
        /// No object with the ID exists.
        case objectNotFound(entity: String?, objects: [ObjectID])
        /// The object is deleted, or belongs to another context, or to none.
        case invalidObject(entity: String?, objects: [ObjectID])
        /// The API was used in a way it does not support.
        case misuse
        /// The persistent history after a token was purged.
        case historyExpired(file: String?)
        /// A value kept outside the database cannot be read; `file` is its file.
        case externalDataUnavailable(entity: String?, key: String?, objects: [ObjectID], file: String?)
        /// Syncing failed; the server (its address, without a password) and the space, when known.
        case sync(server: String?, space: String?)
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
    /// SQLite's result code, if SQLite reported the error.
    public var sqliteCode: SQLiteResultCode?
    /// For validation errors: every problem found, one sentence each.
    public var problems: [String]
    /// The store file involved, if any.
    public var store: String?
    /// For ``Code/incompatibleModel``: the version (or model hash) the store was written with.
    public var storeVersion: String?
    /// For ``Code/incompatibleModel``: the version (or model hash) of the model opening it.
    public var modelVersion: String?
    /// For ``Code/invalidPredicate`` from a format string: the offset of the offending token,
    /// in characters from 0 (the position the message names). Every format-string error has one.
    public var position: Int?
    /// For ``Code/sync``: the server (its address, without a password), if known.
    public var server: String?
    /// For ``Code/sync``: the space being synced, if known.
    public var space: String?

    /// Creates an error.
    ///
    /// ```swift
    /// throw PersistError(.validation, "A task cannot be due before it was created", entity: "Task", attribute: "due")
    /// ```
    public init(_ code: Code, _ message: String, entity: String? = nil, attribute: String? = nil,
                objectIDs: [ObjectID] = [], sql: String? = nil, sqliteCode: SQLiteResultCode? = nil,
                problems: [String] = [], store: String? = nil) {
        self.code = code
        self.message = message
        self.entity = entity
        self.attribute = attribute
        self.objectIDs = objectIDs
        self.sql = sql
        self.sqliteCode = sqliteCode
        self.problems = problems
        self.store = store
    }

    /// What went wrong, with what is involved, as a typed value to switch over.
    ///
    /// ```swift
    /// switch error.reason {
    /// case .conflict(_, let objects): context.rollback(); retry(objects)
    /// case .validation(_, _, let problems): show(problems)
    /// default: throw error
    /// }
    /// ```
    public var reason: Reason {
        switch code {
        case .sqlite: return .sqlite(sqliteCode, sql: sql)
        case .notADatabase: return .notADatabase(file: store)
        case .cannotOpenStore: return .cannotOpenStore(file: store)
        case .incompatibleModel:
            return .incompatibleModel(file: store, storeVersion: storeVersion, modelVersion: modelVersion)
        case .invalidModel: return .invalidModel(entity: entity, key: attribute)
        case .invalidPredicate: return .invalidPredicate(entity: entity, key: attribute, position: position)
        case .invalidRequest: return .invalidRequest(entity: entity, key: attribute)
        case .validation: return .validation(entity: entity, objects: objectIDs, problems: problems.isEmpty ? [message] : problems)
        case .constraintViolation:
            return .constraintViolation(entity: entity, keys: attribute.map { $0.components(separatedBy: ", ") } ?? [],
                                        objects: objectIDs)
        case .conflict: return .conflict(entity: entity, objects: objectIDs)
        case .typeMismatch: return .typeMismatch(entity: entity, key: attribute, objects: objectIDs)
        case .unknownKey: return .unknownKey(entity: entity, key: attribute)
        case .objectNotFound: return .objectNotFound(entity: entity, objects: objectIDs)
        case .invalidObject: return .invalidObject(entity: entity, objects: objectIDs)
        case .misuse: return .misuse
        case .historyExpired: return .historyExpired(file: store)
        case .externalDataUnavailable:
            return .externalDataUnavailable(entity: entity, key: attribute, objects: objectIDs, file: store)
        case .sync: return .sync(server: server, space: space)
        }
    }

    /// The message followed by everything known about where the problem is.
    public var description: String {
        var text = message
        var context: [String] = []
        if let entity { context.append("entity: \(entity)") }
        if let attribute { context.append("attribute: \(attribute)") }
        if !objectIDs.isEmpty { context.append("objects: " + objectIDs.map(\.description).joined(separator: ", ")) }
        if let store { context.append("store: \(store)") }
        if let server { context.append("server: \(server)") }
        if let space { context.append("space: \(space)") }
        if let storeVersion { context.append("store version: \(storeVersion)") }
        if let modelVersion { context.append("model version: \(modelVersion)") }
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
