import Foundation
import PersistKit
import PersistKitTestSupport
import TaskModel
import XCTest

/// The DocC article Migrating a Model's example, TaskModel version 1 to 3, compiled and run
/// (`DocumentationCodeBlocksTests` checks that the block stands here).
final class MigratingAModelExampleTests: XCTestCase {
    func testTheExampleUpgradesAVersion1Store() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("tasks.sqlite")
        _ = try Version1Store(url: url, count: 20, seed: 25)

        let plan = MigrationPlan(models: [try TaskModelV1.makeModel(), try TaskModelV2.makeModel()], stages: [
            .custom(from: 1, to: 2, didMigrate: { context in try TaskModelMigration.tagHashtags(in: context) }),
            .inferred(from: 2, to: 3),
        ])
        let container = try PersistentContainer(model: try TaskStore.makeModel(), store: .sqlite(url),
                                                options: PersistentContainer.Options(migrationPlan: plan))
        if let report = container.migrationReport {
            print("Upgraded tasks.sqlite to version \(report.toVersion) (\(report.objectCounts["Task"] ?? 0) tasks)")
        }

        XCTAssertEqual(container.migrationReport?.fromVersion, 1)
        XCTAssertEqual(container.migrationReport?.toVersion, TaskStore.modelVersion)
        XCTAssertEqual(container.migrationReport?.objectCounts["Task"], 20)
    }
}
