import Foundation

/// A model's history: the model of every older released version, and the stages between
/// consecutive versions. Given to a container (``PersistentContainer/Options/migrationPlan``),
/// it migrates a store written by any older version when the container opens it.
///
/// ```swift
/// let plan = try MigrationPlan(documentsIn: schemaDirectory, stages: [   // 1.json, 2.json...
///     .custom(from: 1, to: 2, didMigrate: { context in
///         for project in try context.fetch(FetchRequest<Project>()) { project.slug = project.name.lowercased() }
///     }),
/// ])
/// let model = try ManagedObjectModel(entities: [TaskItem.self, Project.self], version: 3)
/// let container = try PersistentContainer(model: model, store: .sqlite(url), options: .init(migrationPlan: plan))
/// ```
///
/// A store moves through every stage from its version to the model's (1 → 2 → 3) in one
/// transaction. See <doc:MigratingAModel>.
public struct MigrationPlan: Sendable {
    /// The older versions' models, each with its ``ManagedObjectModel/version``.
    public let models: [ManagedObjectModel]
    /// The stages the plan names; the others are inferred.
    public let stages: [MigrationStage]

    /// A plan from the older versions' models.
    ///
    /// - Parameters:
    ///   - models: The model of each older version (usually loaded from its committed model
    ///     document with ``ManagedObjectModel/init(document:version:)``).
    ///   - stages: Custom stages; versions with none between them get an inferred one.
    public init(models: [ManagedObjectModel], stages: [MigrationStage] = []) {
        self.models = models
        self.stages = stages
    }

    /// A plan from the older versions' model documents, by version.
    ///
    /// - Throws: ``PersistError`` `.invalidModel` when a document cannot be read.
    public init(documents: [Int: Data], stages: [MigrationStage] = []) throws {
        let models = try documents.keys.sorted().map { version in
            do {
                return try ManagedObjectModel(document: documents[version] ?? Data(), version: version)
            } catch var error as PersistError {
                error.message = "Version \(version) of the migration plan: " + error.message
                throw error
            }
        }
        self.init(models: models, stages: stages)
    }

    /// A plan from a directory of model documents named after their versions (`1.json`,
    /// `2.json`...), as `Schema/<Model>/` keeps them; other files are ignored.
    ///
    /// - Throws: ``PersistError`` `.invalidModel` when the directory or a document cannot be read.
    public init(documentsIn directory: URL, stages: [MigrationStage] = []) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw PersistError(.invalidModel, "Cannot read the model documents in \(directory.path): \(error.localizedDescription)")
        }
        var documents: [Int: Data] = [:]
        for name in names where name.hasSuffix(".json") {
            guard let version = Int(name.dropLast(5)), version >= 1 else { continue }
            do {
                documents[version] = try Data(contentsOf: directory.appendingPathComponent(name))
            } catch {
                throw PersistError(.invalidModel, "Cannot read the model document \(name) in \(directory.path): \(error.localizedDescription)")
            }
        }
        try self.init(documents: documents, stages: stages)
    }

    /// Checks the plan against `model` without a store: its versions, its stages, and that
    /// every stage from the oldest version to the model's can be inferred. A test that calls
    /// it fails when a model change cannot be migrated, long before a user's store would.
    ///
    /// ```swift
    /// try plan.check(upTo: TaskStore.makeModel())
    /// ```
    ///
    /// - Throws: ``PersistError`` `.invalidModel` for a plan that does not fit the model,
    ///   `.incompatibleModel` for a change no stage can make, naming the entity and attribute.
    public func check(upTo model: ManagedObjectModel) throws {
        let migrator = try self.migrator(for: model, progress: nil)
        guard let oldest = migrator.models.first else { return }
        let stored = StoredModel(version: oldest.version, isVersionRecorded: true, versionHash: oldest.versionHash)
        try migrator.prepare(from: stored, to: model, path: "(no store)")
    }

    /// The migrator that runs this plan for `model`: each custom stage's closures get a
    /// context of their model over the migration's transaction.
    func migrator(for model: ManagedObjectModel, progress: (@Sendable (MigrationProgress) -> Void)?) throws -> StagedMigrator {
        let versions = Set(models.map(\.version) + [model.version]).sorted()
        var hooks: [Int: StagedMigrator.Hooks] = [:]
        var named = Set<Int>()
        for stage in stages {
            let (from, to) = (stage.fromVersion, stage.toVersion)
            guard let index = versions.firstIndex(of: from), index + 1 < versions.count, versions[index + 1] == to else {
                throw PersistError(.invalidModel, "The migration plan has a stage from version \(from) to \(to), but its versions are "
                                   + versions.map(String.init).joined(separator: ", ") + ": a stage goes from one version to the next")
            }
            guard named.insert(from).inserted else {
                throw PersistError(.invalidModel, "The migration plan has two stages from version \(from) to \(to)")
            }
            if case .custom(_, _, let willMigrate, let didMigrate) = stage {
                hooks[from] = StagedMigrator.Hooks(willMigrate: willMigrate.map(Self.hook), didMigrate: didMigrate.map(Self.hook))
            }
        }
        return try StagedMigrator(models: models, model: model, hooks: hooks, progress: progress)
    }

    /// Runs a stage's closure with a new context of the migration's store, and saves what it
    /// left unsaved.
    private static func hook(_ body: @escaping @Sendable (ManagedObjectContext) throws -> Void) -> StagedMigrator.Hook {
        { store in
            let context = ManagedObjectContext(store: store)
            try body(context)
            if context.hasChanges { try context.save() }
        }
    }
}
