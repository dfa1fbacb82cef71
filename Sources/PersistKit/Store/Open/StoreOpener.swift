import Foundation

/// Opens a store's connection: makes a new store (its schema and metadata in one transaction),
/// or checks an existing one without writing to it.
///
/// Processes may open the same new store at the same moment, and any of them may be killed at
/// any point: deciding that a file is new, and creating the store in it, happen together under
/// SQLite's write lock, and a file whose creation never committed counts as new.
enum StoreOpener {
    /// Opens a connection with the store's SQL functions (MATCHES, `pk_predicate`) on it.
    static func connect(path: String, configuration: SQLiteConnection.Configuration) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, configuration: configuration)
        PredicateSQLFunctions.register(on: connection)
        // Relationships' references are checked by SQLite (deferred to each commit).
        try connection.execute("PRAGMA foreign_keys = ON")
        return connection
    }

    /// An open, checked connection and what was learnt opening it.
    struct Opened {
        let connection: SQLiteConnection
        let identifier: String
        /// Why the store can only be read, or nil when it can be written.
        let readOnlyReason: String?
        /// How to open more connections that only read (nil for an in-memory store, which
        /// has the one connection).
        var readers: Readers?
        /// Whether the store's metadata lacks the model's document: the next save records it
        /// (see ``StoreSchemaCheck/Validated/recordsStaleModel``).
        var recordsStaleModel = false
        /// The folder of the values kept outside the database (nil for an in-memory store,
        /// which keeps every value in its rows, and for a model without `.externalStorage`).
        var externalData: ExternalDataFolder?
    }

    /// The file and settings of a store's reader connections.
    struct Readers {
        let path: String
        let configuration: SQLiteConnection.Configuration

        /// A new read-only connection with the store's SQL functions.
        func open() throws -> SQLiteConnection {
            try StoreOpener.connect(path: path, configuration: configuration)
        }
    }

    /// Opens the store of `description` for `model`; a store of an older model version is
    /// migrated by `migrator` first (see `StoreOpener+Migration.swift`).
    static func open(model: ManagedObjectModel, description: StoreDescription, migrator: StoreMigrating? = nil,
                     logSink: LogSink? = nil, logSettings: LogSettings = LogSettings()) throws -> Opened {
        let configuration = SQLiteConnection.Configuration(synchronous: description.synchronous,
                                                          busyTimeout: description.busyTimeout, logSink: logSink)
        guard case .sqlite(let url) = description.kind else {
            let connection = try Self.connect(path: ":memory:", configuration: configuration)
            guard let identifier = try connection.inImmediateTransaction({ try createSchema(connection, model: model) }) else {
                throw PersistError(.misuse, "A new in-memory database already had a schema")
            }
            try connection.configureForWriting(configuration)
            return Opened(connection: connection, identifier: identifier, readOnlyReason: nil)
        }
        let file = try StoreFile(url: url, readOnly: description.isReadOnly)
        if let reason = file.readOnlyReason {
            return try openReadOnly(file, model: model, configuration: configuration, reason: reason)
        }
        return try openForWriting(file, model: model, configuration: configuration,
                                  migration: Migration(migrator: migrator, description: description, logSettings: logSettings))
    }

    // MARK: Writing

    private static func openForWriting(_ file: StoreFile, model: ManagedObjectModel,
                                       configuration: SQLiteConnection.Configuration, migration: Migration) throws -> Opened {
        let walExisted = FileManager.default.fileExists(atPath: file.realPath + "-wal")
        let connection = try Self.connect(path: file.realPath, configuration: configuration)
        let identified: (identifier: String, recordsStaleModel: Bool)
        do {
            identified = try identifyOrCreate(connection, file: file, model: model, migration: migration)
        } catch {
            // Refused: a WAL another process left stays as it is; one we created (empty)
            // goes away on close, as SQLite does for the last connection.
            if !walExisted { connection.allowCheckpointOnClose() }
            throw error
        }
        try connection.configureForWriting(configuration)
        let externalData = try ExternalDataFolder.prepareWriter(connection, model: model, storePath: file.realPath)
        var readers = configuration
        readers.readOnly = true
        return Opened(connection: connection, identifier: identified.identifier, readOnlyReason: nil,
                      readers: Readers(path: file.realPath, configuration: readers), recordsStaleModel: identified.recordsStaleModel,
                      externalData: externalData)
    }

    /// The identifier of the store the file holds, checked against `model`, or of the store
    /// made now in a file that holds nothing yet.
    private static func identifyOrCreate(_ connection: SQLiteConnection, file: StoreFile, model: ManagedObjectModel,
                                         migration: Migration) throws -> (identifier: String, recordsStaleModel: Bool) {
        let objects = try connection.singleInt("SELECT count(*) FROM sqlite_master") ?? 0
        if objects == 0 {
            // Decided under the write lock: of processes opening a new store together, one
            // creates it and the others find its schema when they get the lock.
            let created: String? = try connection.inImmediateTransaction {
                switch try StoreSchemaCheck.contents(of: connection, path: file.path, realPath: file.realPath) {
                case .store: return nil
                case .blank, .unfinished: return try createSchema(connection, model: model)
                }
            }
            if let created { return (created, false) }
        }
        _ = try StoreSchemaCheck.contents(of: connection, path: file.path, realPath: file.realPath)
        let validated = try StoreSchemaCheck.validate(connection, model: model, path: file.path, realPath: file.realPath)
        if let older = validated.olderModel {
            try migrate(connection, from: older, to: model, file: file, identifier: validated.identifier, migration: migration)
            return (validated.identifier, false)   // the migration recorded the model
        }
        return (validated.identifier, validated.recordsStaleModel)
    }

    /// Creates the tables, indexes and metadata of a new store, within the caller's
    /// transaction; nil if the database already has a schema.
    private static func createSchema(_ connection: SQLiteConnection, model: ManagedObjectModel) throws -> String? {
        guard try connection.singleInt("SELECT count(*) FROM sqlite_master") == 0 else { return nil }
        let identifier = UUID().uuidString
        try connection.execute("CREATE TABLE \(SQLName.quote(SQLiteStore.metadataTable)) (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)")
        for entity in model.entities {
            for statement in SchemaSQL.createStatements(for: entity) {
                try connection.execute(statement)
            }
        }
        for statement in StoreHistory.createStatements { try connection.execute(statement) }
        let insert = try connection.prepare("INSERT INTO \(SQLName.quote(SQLiteStore.metadataTable)) (key, value) VALUES (?, ?)")
        for (key, value) in [(StoreMetadata.formatVersionKey, String(StoreSchemaCheck.formatVersion)),
                             (StoreMetadata.identifierKey, identifier)] + StoreMetadata.modelEntries(model) {
            insert.reset()
            try insert.bind([.text(key), .text(value)])
            try insert.run()
        }
        return identifier
    }

    // MARK: Reading only

    /// Opens a store this process cannot (or chose not to) write.
    ///
    /// With no WAL file nothing is pending and no writer is active: the file is checked through
    /// an immutable connection, which creates no -wal or -shm file, so a refused open leaves
    /// nothing behind. The connection kept afterwards reads live (it sees other processes'
    /// saves) through a -shm file SQLite makes next to the store; where the directory cannot
    /// be written, the immutable one is kept, and reads the file as it is.
    private static func openReadOnly(_ file: StoreFile, model: ManagedObjectModel,
                                     configuration: SQLiteConnection.Configuration, reason: String) throws -> Opened {
        var live = configuration
        live.readOnly = true
        var immutable = live
        immutable.immutable = true
        let walExisted = FileManager.default.fileExists(atPath: file.realPath + "-wal")
        let checked = try Self.connect(path: file.realPath, configuration: walExisted ? live : immutable)
        guard try StoreSchemaCheck.contents(of: checked, path: file.path, realPath: file.realPath) == .store else {
            throw PersistError(.cannotOpenStore, "Cannot create store \(file.path): \(reason)", store: file.path)
        }
        let validated = try StoreSchemaCheck.validate(checked, model: model, path: file.path, realPath: file.realPath)
        if let older = validated.olderModel {
            throw migrationRefused(file: file, from: older, to: model, because: "it cannot be written (\(reason))")
        }
        let identifier = validated.identifier
        let keepsChecked = walExisted || access(file.directory, W_OK) != 0
        let connection = keepsChecked ? checked : try Self.connect(path: file.realPath, configuration: live)
        let readers = Readers(path: file.realPath, configuration: keepsChecked && !walExisted ? immutable : live)
        return Opened(connection: connection, identifier: identifier, readOnlyReason: reason, readers: readers,
                      externalData: model.hasExternalStorage ? ExternalDataFolder(storePath: file.realPath) : nil)
    }
}
