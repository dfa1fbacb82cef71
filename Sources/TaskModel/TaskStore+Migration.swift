import Foundation
import PersistKit

extension TaskStore {
    /// The model version ``makeModel()`` is.
    public static let modelVersion = 3

    /// How stores of older model versions are carried to ``modelVersion``: version 1
    /// (``TaskModelV1``) to 2 by the inferred schema change plus ``TaskModelMigration``'s
    /// hashtags-to-tags stage; version 2 (``TaskModelV2``) to 3 by the schema change alone,
    /// inferred: the new "Day", "DayStats" and "Attachment" tables start empty, every task is on no plan and
    /// out of the backlog, and the store's record takes the default daily limits. A version 1
    /// store runs both stages, in one transaction.
    ///
    /// - Throws: `PersistError` `.invalidModel` when a model cannot be made.
    public static func migrationPlan() throws -> MigrationPlan {
        MigrationPlan(models: [try TaskModelV1.makeModel(), try TaskModelV2.makeModel()], stages: [
            .custom(from: 1, to: 2, didMigrate: { context in try TaskModelMigration.tagHashtags(in: context) }),
            .inferred(from: 2, to: 3),
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

    /// The entities of ``makeModel()``, at ``modelVersion``.
    static func makeVersionedModel(_ entities: [ManagedObject.Type]) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: entities, version: modelVersion)
    }
}
