import Foundation

/// What an open database holds, and whether it is a PersistKit store of a given model:
/// checked without writing anything, so that a refused file stays byte-identical.
enum StoreSchemaCheck {
    /// The store format this version of PersistKit writes and reads (metadata `formatVersion`).
    static let formatVersion = 1

    /// What a database holds, as far as opening it is concerned.
    enum Contents {
        /// Nothing at all: a new or empty file, or a creation that never committed.
        case blank
        /// No schema, but switched to WAL: a store whose creation was interrupted by an older
        /// PersistKit, which switched to WAL before creating the schema.
        case unfinished
        /// A PersistKit store (of some model).
        case store
    }

    /// What the database at `file` holds.
    ///
    /// - Throws: ``PersistError`` `.incompatibleModel` for an SQLite database that is not a
    ///   PersistKit store.
    static func contents(of connection: SQLiteConnection, path: String, realPath: String) throws -> Contents {
        let objects = try connection.singleInt("SELECT count(*) FROM sqlite_master") ?? 0
        if objects == 0 {
            let size = (try? FileManager.default.attributesOfItem(atPath: realPath)[.size] as? NSNumber)?.intValue ?? 0
            // (Not `PRAGMA page_count`: within a write transaction a new file already counts page 1.)
            if size == 0 { return .blank }
            if try connection.singleText("PRAGMA journal_mode")?.lowercased() == "wal" { return .unfinished }
            throw PersistError(.incompatibleModel, "\(path) is an empty SQLite database, not a PersistKit store")
        }
        let tables = try connection.singleInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
                                              [.text(SQLiteStore.metadataTable)]) ?? 0
        guard tables == 1 else {
            throw PersistError(.incompatibleModel,
                               "\(path) is an SQLite database but not a PersistKit store (it has no \(SQLiteStore.metadataTable) table)")
        }
        return .store
    }

    /// What opening found: the store's identifier, and whether it holds the model's version
    /// or an older one that must be migrated first.
    struct Validated {
        let identifier: String
        /// The older model that wrote the store, or nil when the store is of `model`.
        let olderModel: StoredModel?
        /// Whether the metadata lacks the model's document or version: a store written before
        /// stores recorded their model. The next save records it.
        var recordsStaleModel = false
    }

    /// Checks that a database holding a store is undamaged, of this format, and of `model`
    /// (with every table and column the model needs and no others) or of an older version of
    /// it, which a migration must bring up to date.
    ///
    /// - Throws: ``PersistError`` `.notADatabase` (truncated or damaged) or `.incompatibleModel`
    ///   (another format, a newer model version, another model of the same version, a table
    ///   or column missing or extra, a trigger or a view).
    static func validate(_ connection: SQLiteConnection, model: ManagedObjectModel, path: String, realPath: String) throws -> Validated {
        try checkNotTruncated(connection, path: path, realPath: realPath)
        try checkNoUndeclaredObjects(connection, path: path)
        let metadata = try StoreMetadata.read(connection)
        try checkFormatVersion(metadata[StoreMetadata.formatVersionKey], path: path)
        guard let identifier = metadata[StoreMetadata.identifierKey] else {
            throw PersistError(.incompatibleModel, "\(path) is a damaged PersistKit store: its metadata lacks the model hash or store identifier")
        }
        let stored = try storedModel(metadata, path: path)
        if stored.version < model.version {
            return Validated(identifier: identifier, olderModel: stored)
        }
        try checkSameModel(stored, model, path: path)
        try checkTables(of: model, connection, path: path)
        // Presence only: the hash matched, so a recorded document describes this schema, and
        // comparing documents would encode the model's on every open.
        let recorded = metadata[StoreMetadata.modelDocumentKey] != nil && metadata[StoreMetadata.modelVersionKey] != nil
        return Validated(identifier: identifier, olderModel: nil, recordsStaleModel: !recorded)
    }

    /// The model the metadata says wrote the store.
    static func storedModel(_ metadata: [String: String], path: String) throws -> StoredModel {
        guard let hash = metadata[StoreMetadata.versionHashKey] else {
            throw PersistError(.incompatibleModel, "\(path) is a damaged PersistKit store: its metadata lacks the model hash or store identifier")
        }
        guard let text = metadata[StoreMetadata.modelVersionKey] else {
            return StoredModel(version: 1, isVersionRecorded: false, versionHash: hash)
        }
        guard let version = Int(text), version >= 1 else {
            throw PersistError(.incompatibleModel, "\(path) is a damaged PersistKit store: its model version '\(text)' is not a number from 1 up",
                               store: path)
        }
        return StoredModel(version: version, isVersionRecorded: true, versionHash: hash)
    }

    /// A store of the model's version, or a newer one: it must be the model's very schema.
    private static func checkSameModel(_ stored: StoredModel, _ model: ManagedObjectModel, path: String) throws {
        if stored.version > model.version {
            var error = PersistError(.incompatibleModel,
                "\(path) was written by version \(stored.version) of the model, which is newer than this model (version \(model.version)); "
                + "it was left untouched. Open it with the newer version of the application.", store: path)
            error.storeVersion = String(stored.version)
            error.modelVersion = String(model.version)
            throw error
        }
        guard stored.versionHash != model.versionHash else { return }
        let message: String
        if stored.isVersionRecorded {
            message = "\(path) was written by version \(stored.version) of the model, but its schema (hash \(stored.versionHash.prefix(12))...) "
                + "differs from this model's version \(model.version) (hash \(model.versionHash.prefix(12))...): a changed model needs a new "
                + "version number and a migration plan; it was left untouched"
        } else {
            message = "\(path) was written with another model (hash \(stored.versionHash.prefix(12))..., this model is "
                + "\(model.versionHash.prefix(12))...); it was left untouched"
        }
        var error = PersistError(.incompatibleModel, message, store: path)
        error.storeVersion = stored.isVersionRecorded ? String(stored.version) : stored.versionHash
        error.modelVersion = stored.isVersionRecorded ? String(model.version) : model.versionHash
        throw error
    }

    /// Every table and column `model` reads and writes exists, with no extra column.
    static func checkTables(of model: ManagedObjectModel, _ connection: SQLiteConnection, path: String) throws {
        for (entity, columns) in SchemaSQL.tables(of: model) {
            try checkTable(of: entity, columns: columns, connection, path: path)
        }
        for entity in model.entities {
            for table in entity.ownedJoinTables { try checkJoinTable(table, connection, path: path) }
        }
    }

    private static func checkFormatVersion(_ text: String?, path: String) throws {
        let current = String(formatVersion)
        guard let text else {
            throw PersistError(.incompatibleModel, "\(path) is a damaged PersistKit store: its metadata lacks the store format version", store: path)
        }
        guard text != current else { return }
        let message: String
        if let version = Int(text), version > formatVersion {
            message = "\(path) was written in store format version \(version), but this version of PersistKit reads "
                + "format version \(current) only; it was left untouched. Open it with a newer PersistKit."
        } else {
            message = "\(path) has an unknown store format version '\(text)' (this version of PersistKit reads "
                + "format version \(current)); it was left untouched"
        }
        var error = PersistError(.incompatibleModel, message, store: path)
        error.storeVersion = text
        error.modelVersion = current
        throw error
    }

    /// The entity's table has exactly the columns the model reads and writes: a missing one
    /// would fail every read, and an extra one (NOT NULL, say) could fail every insert.
    /// A join table the model writes exists with its three columns.
    private static func checkJoinTable(_ table: JoinTable, _ connection: SQLiteConnection, path: String) throws {
        let statement = try connection.prepare("SELECT name FROM pragma_table_info(?)")
        try statement.bind([.text(table.name)])
        var columns: [String] = []
        while try statement.step() { columns.append(statement.string(at: 0)) }
        let expected = [JoinTable.ownerColumn, JoinTable.destinationColumn, JoinTable.positionColumn]
        guard columns.sorted() == expected.sorted() else {
            throw PersistError(.incompatibleModel, "\(path) does not match the model: its join table \(table.name) "
                               + (columns.isEmpty ? "is missing" : "has columns \(columns.joined(separator: ", "))")
                               + "; it was left untouched", entity: table.ownerEntity, store: path)
        }
    }

    private static func checkTable(of entity: EntityDescription, columns expected: [String], _ connection: SQLiteConnection,
                                   path: String) throws {
        let statement = try connection.prepare("SELECT name FROM pragma_table_info(?)")
        try statement.bind([.text(entity.name)])
        var columns: [String] = []
        while try statement.step() { columns.append(statement.string(at: 0)) }
        guard !columns.isEmpty else {
            throw PersistError(.incompatibleModel, "\(path) does not match the model: it has no table \(entity.name) for the entity "
                               + "\(entity.name); it was left untouched", entity: entity.name, store: path)
        }
        let extra = columns.filter { !expected.contains($0) }
        if let missing = expected.first(where: { !columns.contains($0) }) {
            let instead = extra.isEmpty ? "" : " (it has \(extra.joined(separator: ", ")) instead)"
            throw PersistError(.incompatibleModel, "\(path) does not match the model: the table \(entity.name) has no column "
                               + "\(missing)\(instead); it was left untouched", entity: entity.name, attribute: missing, store: path)
        }
        if let first = extra.first {
            throw PersistError(.incompatibleModel, "\(path) does not match the model: the table \(entity.name) has a column "
                               + "\(first) the model does not have; it was left untouched", entity: entity.name, attribute: first, store: path)
        }
    }

    private static func checkNotTruncated(_ connection: SQLiteConnection, path: String, realPath: String) throws {
        let walSize = (try? FileManager.default.attributesOfItem(atPath: realPath + "-wal")[.size] as? NSNumber)?.intValue ?? 0
        guard walSize == 0 else { return }   // pages may legitimately live in the WAL
        let pageCount = try connection.singleInt("PRAGMA page_count") ?? 0
        let pageSize = try connection.singleInt("PRAGMA page_size") ?? 0
        let fileSize = (try? FileManager.default.attributesOfItem(atPath: realPath)[.size] as? NSNumber)?.int64Value ?? 0
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
}
