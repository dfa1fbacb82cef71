import Foundation
import PersistKit

// The migration glue needs PersistKit's migration API (model versions, MigrationPlan, container
// options and report), built on another branch. Until both are on one branch, it compiles only
// with PERSISTKIT_MIGRATION_API defined; without it, stores of version 1 are refused as before.
// Once merged: delete the #if/#else lines and the #else branches.
extension TaskStore {
    /// The model version ``makeModel()`` is.
    public static let modelVersion = 2

    #if PERSISTKIT_MIGRATION_API
    /// How stores of older model versions are carried to ``modelVersion``: version 1
    /// (``TaskModelV1``) to 2 by the inferred schema change plus ``TaskModelMigration``'s
    /// hashtags-to-tags stage.
    ///
    /// - Throws: ``PersistKit/PersistError`` `.invalidModel` when a model cannot be made.
    public static func migrationPlan() throws -> MigrationPlan {
        MigrationPlan(models: [try TaskModelV1.makeModel()], stages: [
            .custom(from: 1, to: 2, didMigrate: { context in try TaskModelMigration.tagHashtags(in: context) }),
        ])
    }

    /// A container on the SQLite store at `url`, migrating an older store first.
    static func makeContainer(url: URL) throws -> PersistentContainer {
        try PersistentContainer(model: try makeModel(), store: .sqlite(url),
                                options: PersistentContainer.Options(migrationPlan: try migrationPlan()))
    }

    /// What opening the container did to its store, from its migration report.
    static func upgrade(of container: PersistentContainer) -> StoreUpgrade? {
        container.migrationReport.map {
            StoreUpgrade(fromVersion: $0.fromVersion, toVersion: $0.toVersion, taskCount: $0.objectCounts[TaskItem.entityName] ?? 0)
        }
    }

    /// The entities of ``makeModel()``, at version 2.
    static func makeVersionedModel(_ entities: [ManagedObject.Type]) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: entities, version: modelVersion)
    }
    #else
    /// A container on the SQLite store at `url`.
    static func makeContainer(url: URL) throws -> PersistentContainer {
        try PersistentContainer(model: try makeModel(), store: .sqlite(url))
    }

    /// Nothing is migrated without the migration API.
    static func upgrade(of container: PersistentContainer) -> StoreUpgrade? { nil }

    /// The entities of ``makeModel()``.
    static func makeVersionedModel(_ entities: [ManagedObject.Type]) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: entities)
    }
    #endif
}
