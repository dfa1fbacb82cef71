import Foundation
import PersistKit
import PersistKitTestSupport
import TaskModel
@testable import PersistKit

/// Real stores for the tool to read: one `TaskStore` writes today (model version 2, with
/// projects, tags and history), one written by TaskModel version 1, and ways to damage them.
enum ToolStores {
    /// A version 2 task store: 3 tasks (one in project Home with tag errands, one done), no samples.
    static func writeTaskStore(at url: URL) throws {
        let store = try TaskStore(container: PersistentContainer(model: TaskStore.makeModel(), store: .sqlite(url)),
                                  stagesSampleData: false)
        _ = try store.add(name: "Buy milk", TaskChanges(notes: "oat", project: "Home", addedTags: ["errands"]))
        _ = try store.add(name: "Call mom", TaskChanges())
        let done = try store.add(name: "Water the plants", TaskChanges(priority: .high))
        try store.setIsComplete(done, true)
    }

    /// A store as `tasks` 0.1 wrote it: TaskModel version 1, `count` tasks.
    static func writeVersion1Store(at url: URL, count: Int) throws {
        let container = try PersistentContainer(model: try TaskModelV1.makeModel(), store: .sqlite(url))
        let context = container.newContext()
        _ = TaskModelV1.StoreInfo(context: context)
        for index in 0..<count {
            let task = TaskModelV1.TaskItem(context: context)
            task.name = "task \(index)"
            task.isComplete = index % 2 == 0
            task.createdAt = Date(timeIntervalSince1970: 1_700_000_000 + Double(index))
        }
        try context.save()
    }

    /// Runs SQL on the store outside PersistKit (foreign keys off), as damage from another program would.
    static func runRawSQL(_ sql: String, on url: URL) throws {
        let connection = try SQLiteConnection(path: url.path, configuration: .init())
        try connection.execute("PRAGMA foreign_keys = OFF")
        try connection.execute(sql)
        connection.allowCheckpointOnClose()
    }
}
