import Foundation

/// The SQLite store behind a container: one connection, its schema, and a log of saves.
///
/// Every context of a container uses the store's one connection, one at a time behind `lock`:
/// SQLite connections are not thread-safe, and one connection means one consistent view.
final class SQLiteStore: @unchecked Sendable {
    // @unchecked Sendable: `connection`, `changeLog`, `nextSequence`, `dataVersion` and
    // `statementSQL` are only touched while holding `lock`; the other properties are lets.

    let model: ManagedObjectModel
    let identifier: String
    let description: StoreDescription
    private let lock = NSLock()
    private let connection: SQLiteConnection
    private var changeLog: [StoreChange] = []
    private var nextSequence = 1
    private var dataVersion: Int64 = 0
    /// SQL text of the write statements, built once per entity and column set (under `lock`).
    private var statementSQL: [StatementKey: String] = [:]
    private static let maximumLoggedChanges = 1_000
    static let metadataTable = "_persistkit_metadata"

    init(model: ManagedObjectModel, description: StoreDescription) throws {
        self.model = model
        self.description = description
        let configuration = SQLiteConnection.Configuration(synchronous: description.synchronous,
                                                          busyTimeout: description.busyTimeout)
        let path: String
        var existed = false
        switch description.kind {
        case .inMemory:
            path = ":memory:"
        case .sqlite(let url):
            guard url.isFileURL else {
                throw PersistError(.cannotOpenStore, "\(url) is not a file URL")
            }
            path = url.path
            let directory = url.deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw PersistError(.cannotOpenStore, "Cannot open store \(path): the directory \(directory) does not exist")
            }
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                if isDirectory.boolValue {
                    throw PersistError(.cannotOpenStore, "Cannot open store \(path): it is a directory")
                }
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
                existed = size > 0
            } else if !FileManager.default.isWritableFile(atPath: directory) {
                throw PersistError(.cannotOpenStore, "Cannot create store \(path): the directory \(directory) is not writable")
            }
        }
        let walExisted = FileManager.default.fileExists(atPath: path + "-wal")
        connection = try SQLiteConnection(path: path, configuration: configuration)
        if existed {
            do {
                identifier = try SQLiteStore.validateExisting(connection, model: model, path: path)
                if !FileManager.default.isWritableFile(atPath: path) {
                    throw PersistError(.cannotOpenStore, "Cannot open store \(path) for writing: permission denied")
                }
            } catch {
                // Refused: a WAL another process left stays as it is; one we created (empty)
                // goes away on close, as SQLite does for the last connection.
                if !walExisted { connection.allowCheckpointOnClose() }
                throw error
            }
            try connection.configureForWriting(configuration)
        } else {
            try connection.configureForWriting(configuration)
            identifier = UUID().uuidString
            try SQLiteStore.createSchema(connection, model: model, identifier: identifier)
        }
        dataVersion = try connection.singleInt("PRAGMA data_version") ?? 0
    }

    // MARK: Opening

    /// Checks, without writing anything, that the file is a PersistKit store of this model.
    private static func validateExisting(_ connection: SQLiteConnection, model: ManagedObjectModel, path: String) throws -> String {
        let tables = try connection.singleInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
                                              [.text(metadataTable)]) ?? 0
        guard tables == 1 else {
            let others = try connection.singleInt("SELECT count(*) FROM sqlite_master") ?? 0
            if others == 0 {
                throw PersistError(.incompatibleModel, "\(path) is an empty SQLite database, not a PersistKit store")
            }
            throw PersistError(.incompatibleModel, "\(path) is an SQLite database but not a PersistKit store (it has no \(metadataTable) table)")
        }
        try checkNotTruncated(connection, path: path)
        let metadata = try readMetadata(connection)
        guard let storedHash = metadata["versionHash"], let identifier = metadata["storeIdentifier"] else {
            throw PersistError(.incompatibleModel, "\(path) is a damaged PersistKit store: its metadata lacks the model hash or store identifier")
        }
        if storedHash != model.versionHash {
            var error = PersistError(.incompatibleModel,
                "\(path) was written with another model (hash \(storedHash.prefix(12))..., this model is \(model.versionHash.prefix(12))...); "
                + "it was left untouched. Migration is not supported yet.", store: path)
            error.storeVersion = storedHash
            error.modelVersion = model.versionHash
            throw error
        }
        return identifier
    }

    private static func checkNotTruncated(_ connection: SQLiteConnection, path: String) throws {
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue ?? 0
        guard walSize == 0 else { return }   // pages may legitimately live in the WAL
        let pageCount = try connection.singleInt("PRAGMA page_count") ?? 0
        let pageSize = try connection.singleInt("PRAGMA page_size") ?? 0
        let fileSize = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        if pageCount * pageSize > fileSize {
            throw PersistError(.notADatabase, "\(path) is truncated: it should hold \(pageCount * pageSize) bytes but has \(fileSize)")
        }
        // Reading every table's root catches most damage without a full integrity check.
        let statement = try connection.prepare("PRAGMA quick_check(1)")
        defer { statement.reset() }
        if try statement.step() {
            let result = statement.string(at: 0)
            if result != "ok" {
                throw PersistError(.notADatabase, "\(path) is damaged: \(result)")
            }
        }
    }

    private static func readMetadata(_ connection: SQLiteConnection) throws -> [String: String] {
        let statement = try connection.prepare("SELECT key, value FROM \(SQLName.quote(metadataTable))")
        var result: [String: String] = [:]
        while try statement.step() {
            result[statement.string(at: 0)] = statement.string(at: 1)
        }
        return result
    }

    private static func createSchema(_ connection: SQLiteConnection, model: ManagedObjectModel, identifier: String) throws {
        try connection.inImmediateTransaction {
            try connection.execute("CREATE TABLE \(SQLName.quote(metadataTable)) (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)")
            for entity in model.entities {
                for statement in SchemaSQL.createStatements(for: entity) {
                    try connection.execute(statement)
                }
            }
            let insert = try connection.prepare("INSERT INTO \(SQLName.quote(metadataTable)) (key, value) VALUES (?, ?)")
            let document = String(decoding: model.document, as: UTF8.self)
            for (key, value) in [("formatVersion", "1"), ("storeIdentifier", identifier),
                                 ("versionHash", model.versionHash), ("modelDocument", document)] {
                insert.reset()
                try insert.bind([.text(key), .text(value)])
                try insert.run()
            }
        }
    }

    // MARK: Access

    /// Runs `body` with the connection, holding the store's lock.
    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        do {
            return try body(connection)
        } catch var error as PersistError {
            error.store = error.store ?? displayPath
            throw error
        }
    }

    /// What a write statement's SQL depends on.
    enum StatementKey: Hashable {
        case insert(ObjectIdentifier)
        case update(ObjectIdentifier, SlotSet, Bool)
    }

    /// The SQL for a write statement, built by `make` the first time. Call with `lock` held.
    func cachedSQL(_ key: StatementKey, _ make: () -> String) -> String {
        if let sql = statementSQL[key] { return sql }
        let sql = make()
        statementSQL[key] = sql
        return sql
    }

    /// The file path, or ":memory:".
    var displayPath: String { description.url?.path ?? ":memory:" }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction; if it commits, logs the change it
    /// returns for the other contexts.
    func save(origin: Int, _ body: (SQLiteConnection) throws -> StoreChange) throws -> Int {
        lock.lock()
        defer { lock.unlock() }
        var change: StoreChange
        do {
            change = try connection.inImmediateTransaction { try body(connection) }
        } catch var error as PersistError {
            error.store = error.store ?? displayPath
            throw error
        }
        change = StoreChange(sequence: nextSequence, origin: origin, inserted: change.inserted,
                             updated: change.updated, deleted: change.deleted)
        nextSequence += 1
        changeLog.append(change)
        if changeLog.count > SQLiteStore.maximumLoggedChanges {
            changeLog.removeFirst(changeLog.count - SQLiteStore.maximumLoggedChanges)
        }
        return change.sequence
    }

    /// The latest sequence number: a new context starts there.
    var currentSequence: Int {
        lock.lock()
        defer { lock.unlock() }
        return nextSequence - 1
    }

    /// Changes logged after `sequence` by other contexts, after probing (`PRAGMA data_version`)
    /// for commits by other processes. `complete` is false when the log no longer reaches back
    /// that far, or another process wrote: the reader must then refresh everything it holds.
    func changes(after sequence: Int, excluding origin: Int) -> (changes: [StoreChange], complete: Bool, latest: Int) {
        lock.lock()
        defer { lock.unlock() }
        if let version = try? connection.singleInt("PRAGMA data_version"), version != dataVersion {
            dataVersion = version
            changeLog.append(StoreChange(sequence: nextSequence, origin: 0, isExternal: true))
            nextSequence += 1
        }
        let latest = nextSequence - 1
        guard sequence < latest else { return ([], true, latest) }
        let oldest = changeLog.first?.sequence ?? nextSequence
        let complete = sequence + 1 >= oldest
        let newer = changeLog.filter { $0.sequence > sequence && $0.origin != origin }
        return (newer, complete && !newer.contains(where: \.isExternal), latest)
    }
}
