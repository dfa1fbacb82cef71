import Foundation
import PersistKit
import TaskModel
import TerminalProgress

/// The task store's container, opened as `TaskStore(url:)` opens it, with a progress bar on a
/// terminal while an older store is upgraded (a large one takes a while).
enum UpgradeProgress {
    static func container(url: URL) throws -> PersistentContainer {
        let bar = ProgressBar()
        defer { bar.clear() }
        let options = PersistentContainer.Options(migrationPlan: try TaskStore.migrationPlan(), migrationProgress: { progress in
            // Each stage is half its tables' rows copied, half its own code (hashtags to tags).
            var part = 0.0
            switch progress.step {
            case "willMigrate": part = 0
            case "didMigrate": part = 0.5
            case "done": part = 1
            default: part = progress.totalRows > 0 ? 0.5 * Double(progress.rowsDone) / Double(progress.totalRows) : 0.25
            }
            let done = (Double(progress.stage - 1) + part) / Double(max(1, progress.stageCount))
            bar.show("upgrading to version \(progress.toVersion): \(progress.step)", done: Int(done * 1000), total: 1000)
        })
        return try PersistentContainer(model: TaskStore.makeModel(), store: .sqlite(url), options: options)
    }
}
