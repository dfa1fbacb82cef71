import Foundation

/// Migrates a store through every stage from the version that wrote it to the model's: for
/// each pair of consecutive versions, the stage's `willMigrate` code on the old model, the
/// inferred schema change, then its `didMigrate` code on the new model; all inside the one
/// transaction the store's opener holds.
///
/// The hooks get a store over the migration's connection; the container (which knows
/// contexts) wraps the application's closures into them.
final class StagedMigrator: StoreMigrating {
    /// Code a stage runs, given a store of the stage's old (willMigrate) or new (didMigrate) model.
    typealias Hook = (SQLiteStore) throws -> Void

    /// The code of the stage from one version to the next.
    struct Hooks {
        var willMigrate: Hook?
        var didMigrate: Hook?
    }

    /// One stage of a migration.
    struct Stage {
        let from: ManagedObjectModel
        let to: ManagedObjectModel
        let hooks: Hooks
    }

    /// Every known version, oldest first, the model's own last.
    let models: [ManagedObjectModel]
    private let hooks: [Int: Hooks]
    private let progress: (@Sendable (MigrationProgress) -> Void)?
    /// What the last migration did (nil until one ran).
    private(set) var report: MigrationReport?

    /// - Parameters:
    ///   - models: The older versions (the model's own version may be among them, if identical).
    ///   - hooks: Each stage's code, by the version it starts from.
    /// - Throws: `.invalidModel` for two models of one version, a version newer than the
    ///   model, or a plan model of the model's version that differs from it.
    init(models older: [ManagedObjectModel], model: ManagedObjectModel, hooks: [Int: Hooks],
         progress: (@Sendable (MigrationProgress) -> Void)?) throws {
        var byVersion: [Int: ManagedObjectModel] = [model.version: model]
        for candidate in older {
            if candidate.version > model.version {
                throw PersistError(.invalidModel, "The migration plan has a model of version \(candidate.version), newer than the model "
                                   + "(version \(model.version))")
            }
            if candidate.version == model.version {
                guard candidate.versionHash == model.versionHash else {
                    throw PersistError(.invalidModel, "The migration plan's model of version \(model.version) differs from the model "
                                       + "(hash \(candidate.versionHash.prefix(12))... against \(model.versionHash.prefix(12))...)")
                }
                continue
            }
            if byVersion[candidate.version] != nil {
                throw PersistError(.invalidModel, "The migration plan has two models of version \(candidate.version)")
            }
            byVersion[candidate.version] = candidate
        }
        models = byVersion.keys.sorted().compactMap { byVersion[$0] }
        self.hooks = hooks
        self.progress = progress
    }

    /// The stages from the store's version to the model's.
    ///
    /// - Throws: `.incompatibleModel` when the plan has no model of the store's version, or
    ///   one that is not the model that wrote the store (an unknown model).
    func stages(from stored: StoredModel, path: String) throws -> [Stage] {
        guard let start = models.firstIndex(where: { $0.version == stored.version }) else {
            throw unknownModel(path, stored, "which the migration plan does not have (it has versions "
                               + models.map { String($0.version) }.joined(separator: ", ") + ")")
        }
        guard models[start].versionHash == stored.versionHash else {
            let written = stored.isVersionRecorded ? "" : " (written before stores recorded their version: taken as version 1)"
            throw unknownModel(path, stored, "but its schema (hash \(stored.versionHash.prefix(12))...)\(written) is not the migration "
                               + "plan's version \(stored.version) (hash \(models[start].versionHash.prefix(12))...): an unknown model")
        }
        return (start..<(models.count - 1)).map { index in
            Stage(from: models[index], to: models[index + 1], hooks: hooks[models[index].version] ?? Hooks())
        }
    }

    private func unknownModel(_ path: String, _ stored: StoredModel, _ reason: String) -> PersistError {
        var error = PersistError(.incompatibleModel, "\(path) was written by version \(stored.version) of the model, \(reason); "
                                 + "it was left untouched", store: path)
        error.storeVersion = String(stored.version)
        error.modelVersion = models.last.map { String($0.version) }
        return error
    }

    func prepare(from stored: StoredModel, to model: ManagedObjectModel, path: String) throws {
        for stage in try stages(from: stored, path: path) {
            _ = try InferredStagePlanner.plan(from: stage.from, to: stage.to)
        }
    }

    func migrate(_ connection: SQLiteConnection, from stored: StoredModel, to model: ManagedObjectModel, store: StoreIdentity) throws {
        let started = Date()
        let stages = try stages(from: stored, path: store.path)
        guard let first = stages.first, let last = stages.last else { return }
        // The store must really hold the tables of the version it names, before anything changes.
        try StoreSchemaCheck.checkTables(of: first.from, connection, path: store.path)
        let sink = connection.logSink.flatMap { $0.logsDebug ? $0 : nil }
        for (index, stage) in stages.enumerated() {
            sink?.log(.debug, "migration of \(store.path): stage \(index + 1) of \(stages.count), version \(stage.from.version) to "
                      + "\(stage.to.version)", metadata: ["store": "\(store.path)"])
            let tell: SchemaMigrator.Progress = { step, done, total in
                self.progress?(MigrationProgress(fromVersion: stage.from.version, toVersion: stage.to.version, stage: index + 1,
                                                 stageCount: stages.count, step: step, rowsDone: done, totalRows: total))
            }
            if let willMigrate = stage.hooks.willMigrate {
                tell("willMigrate", 0, 0)
                try willMigrate(SQLiteStore(migrating: connection, model: stage.from, store: store))
            }
            let mapping = try InferredStagePlanner.plan(from: stage.from, to: stage.to)
            try SchemaMigrator(connection: connection, mapping: mapping, store: store, progress: tell).run()
            if let didMigrate = stage.hooks.didMigrate {
                tell("didMigrate", 0, 0)
                try didMigrate(SQLiteStore(migrating: connection, model: stage.to, store: store))
            }
        }
        let counts = try SQLiteStore(migrating: connection, model: last.to, store: store).objectCounts()
        report = MigrationReport(fromVersion: first.from.version, toVersion: last.to.version, objectCounts: counts,
                                 duration: Date().timeIntervalSince(started))
        sink?.log(.debug, "migrated \(store.path) from version \(first.from.version) to \(last.to.version): "
                  + "\(counts.values.reduce(0, +)) objects in \(String(format: "%.3f", Date().timeIntervalSince(started) * 1000)) ms",
                  metadata: ["store": "\(store.path)"])
    }
}
