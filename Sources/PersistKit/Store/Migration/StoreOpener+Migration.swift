import Foundation

/// Migrating a store of an older model version while opening it: one `BEGIN IMMEDIATE`
/// transaction holds every stage, the new metadata and the checks, so that a process killed at
/// any moment leaves the store of the old version or of the new one.
extension StoreOpener {
    /// What the opener needs to migrate a store: the migrator (nil when the container was
    /// given no migration plan) and the store's description, for the migration's contexts.
    struct Migration {
        let migrator: StoreMigrating?
        let description: StoreDescription
        var logSettings = LogSettings()
    }

    /// Migrates the store at `file` from `older` to `model`, or throws with the files
    /// unchanged (a refused plan writes nothing; a failed migration rolls back).
    static func migrate(_ connection: SQLiteConnection, from older: StoredModel, to model: ManagedObjectModel,
                        file: StoreFile, identifier: String, migration: Migration) throws {
        guard let migrator = migration.migrator else {
            throw migrationRefused(file: file, from: older, to: model,
                                   because: "no migration plan was given (PersistentContainer.Options.migrationPlan)")
        }
        try migrator.prepare(from: older, to: model, path: file.path)
        // SQLite's procedure for changing tables: foreign keys off outside the transaction (on,
        // dropping a rebuilt table would run its delete actions), every reference checked before
        // the commit.
        try connection.execute("PRAGMA foreign_keys = OFF")
        defer {
            connection.clearStatementCache()
            try? connection.execute("PRAGMA foreign_keys = ON")
        }
        let migrated: Bool = try connection.inImmediateTransaction {
            // Another process may have migrated the store while this one waited for the lock.
            let now = try StoreSchemaCheck.storedModel(StoreMetadata.read(connection), path: file.path)
            guard now.version < model.version else { return false }
            if now.version != older.version || now.versionHash != older.versionHash {
                try migrator.prepare(from: now, to: model, path: file.path)
            }
            let store = StoreIdentity(identifier: identifier, description: migration.description, path: file.path,
                                      externalData: ExternalDataFolder(storePath: file.realPath),
                                      logSettings: migration.logSettings)
            try migrator.migrate(connection, from: now, to: model, store: store)
            try StoreMetadata.recordModel(model, connection)
            try StoreSchemaCheck.checkTables(of: model, connection, path: file.path)
            try checkReferences(connection, path: file.path)
            return true
        }
        if !migrated {
            let validated = try StoreSchemaCheck.validate(connection, model: model, path: file.path, realPath: file.realPath)
            if let stillOlder = validated.olderModel {
                throw migrationRefused(file: file, from: stillOlder, to: model, because: "another process changed it while it was being opened")
            }
        }
    }

    /// The error for a store that needs a migration this open cannot run.
    static func migrationRefused(file: StoreFile, from older: StoredModel, to model: ManagedObjectModel,
                                 because reason: String) -> PersistError {
        var error = PersistError(.incompatibleModel,
            "\(file.path) was written by version \(older.version) of the model and must be migrated to version \(model.version), "
            + "but \(reason); it was left untouched", store: file.path)
        error.storeVersion = String(older.version)
        error.modelVersion = String(model.version)
        return error
    }

    /// Every foreign key of every table points at a row that exists (`PRAGMA foreign_key_check`).
    private static func checkReferences(_ connection: SQLiteConnection, path: String) throws {
        let statement = try connection.prepare("PRAGMA foreign_key_check")
        var broken: [String] = []
        var count = 0
        while try statement.step() {
            count += 1
            if broken.count < 5 {
                // (A join table has no rowid to name.)
                let row = statement.isNull(at: 1) ? "a row" : "row \(statement.int64(at: 1))"
                broken.append("\(statement.string(at: 0)) \(row) refers to a missing \(statement.string(at: 2))")
            }
        }
        guard count > 0 else { return }
        throw PersistError(.constraintViolation,
            "The migration of \(path) would leave \(count) broken reference\(count == 1 ? "" : "s") (\(broken.joined(separator: "; "))"
            + (count > broken.count ? "; ..." : "") + "); nothing was changed", store: path)
    }
}
