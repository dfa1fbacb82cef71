import Foundation
import PersistKit

extension TaskStore {
    /// The model version ``makeModel()`` is.
    public static let modelVersion = 2

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
}
