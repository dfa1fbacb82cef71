import Foundation
import PersistKit

/// TaskModel's model version 2, as released: tasks with due days, priorities, completion and
/// reminder times, projects and tags, the store's one-row record and the reminders shown. Its
/// document is `Schema/TaskModel/2.json`, which never changes.
///
/// The migration reads stores of this model: the stage from version 1 turns hashtags into tags
/// in a context of it (``TaskModelMigration``), and the stage to version 3 starts from it.
/// Tests write version 2 stores with these classes:
///
/// ```swift
/// let container = try PersistentContainer(model: try TaskModelV2.makeModel(), store: .sqlite(url))
/// let task = TaskModelV2.TaskItem(context: container.newContext())
/// ```
public enum TaskModelV2 {
    /// The model version number.
    public static let version = 2

    /// The version 2 model: entities "Task", "StoreInfo", "Project", "Tag" and "ReminderNotice".
    public static func makeModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [TaskItem.self, StoreInfo.self, Project.self, Tag.self, ReminderNotice.self],
                               version: version)
    }

    /// A task as version 2 stored it.
    public final class TaskItem: ManagedObject {
        /// "Task".
        override public class var entityName: String { "Task" }
        /// The name.
        @Attribute public var name: String
        /// The notes.
        @Attribute public var notes: String?
        /// The due day (midnight UTC, with `dueIsDay`) or instant.
        @Attribute public var due: Date?
        /// Whether the task is done.
        @Attribute public var isComplete = false
        /// When the task was created.
        @Attribute public var createdAt = Date(timeIntervalSince1970: 0)
        /// Whether `due` is a calendar day.
        @Attribute public var dueIsDay = false
        /// The priority.
        @Attribute public var priority: TaskPriority = .normal
        /// When the task was completed.
        @Attribute public var completedAt: Date?
        /// When to remind about the task.
        @Attribute public var remindAt: Date?
        /// The task's project.
        @Relationship(inverse: \Project.tasks) public var project: Project?
        /// The task's tags.
        @Relationship(inverse: \Tag.tasks) public var tags: Set<Tag>
    }

    /// The store's record as version 2 stored it.
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

    /// A project as version 2 stored it.
    public final class Project: ManagedObject {
        /// "Project".
        override public class var entityName: String { "Project" }
        /// The name, unique.
        @Attribute(.unique) public var name: String
        /// The project's tasks.
        @Relationship public var tasks: Set<TaskItem>
    }

    /// A tag as version 2 stored it.
    public final class Tag: ManagedObject {
        /// "Tag".
        override public class var entityName: String { "Tag" }
        /// The name, unique.
        @Attribute(.unique) public var name: String
        /// The tasks with this tag.
        @Relationship public var tasks: Set<TaskItem>
    }

    /// A reminder shown, as version 2 stored it.
    public final class ReminderNotice: ManagedObject {
        /// "ReminderNotice".
        override public class var entityName: String { "ReminderNotice" }
        /// The task's reference number.
        @Attribute public var taskReference: Int64 = 0
        /// The task's reminder time when it was shown.
        @Attribute public var remindAt = Date(timeIntervalSince1970: 0)
        /// When it was shown.
        @Attribute public var shownAt = Date(timeIntervalSince1970: 0)

        /// One notice per task and reminder time.
        override public class var uniquenessConstraints: [[String]] { [["taskReference", "remindAt"]] }
    }
}
