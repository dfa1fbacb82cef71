import Foundation
import PersistKit

/// TaskModel's model version 1, as released: tasks with a name, notes, a due date (an instant;
/// days were given as local midnight), completion and creation time, and the store's one-row
/// record. Its document is `Schema/TaskModel/1.json`, which never changes.
///
/// The migration to version 2 reads stores of this model; tests write them with these classes:
///
/// ```swift
/// let container = try PersistentContainer(model: try TaskModelV1.makeModel(), store: .sqlite(url))
/// let context = container.newContext()
/// let task = TaskModelV1.TaskItem(context: context)
/// task.name = "Buy milk #errands"
/// try context.save()
/// ```
public enum TaskModelV1 {
    /// The model version number.
    public static let version = 1

    /// The version 1 model: entities "Task" and "StoreInfo".
    public static func makeModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [TaskItem.self, StoreInfo.self], version: version)
    }

    /// A task as version 1 stored it.
    public final class TaskItem: ManagedObject {
        /// "Task".
        override public class var entityName: String { "Task" }
        /// The name.
        @Attribute public var name: String
        /// The notes.
        @Attribute public var notes: String?
        /// The due date: local midnight of the day given.
        @Attribute public var due: Date?
        /// Whether the task is done.
        @Attribute public var isComplete = false
        /// When the task was created.
        @Attribute public var createdAt = Date(timeIntervalSince1970: 0)
    }

    /// The store's record as version 1 stored it.
    public final class StoreInfo: ManagedObject {
        /// "StoreInfo".
        override public class var entityName: String { "StoreInfo" }
        /// Always "tasks".
        @Attribute public var key = "tasks"
        /// Whether examples were staged.
        @Attribute public var sampleDataStaged = false

        /// The key is unique.
        override public class var uniquenessConstraints: [[String]] { [["key"]] }
    }
}
