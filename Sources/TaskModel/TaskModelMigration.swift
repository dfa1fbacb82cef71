import Foundation
import PersistKit

/// What moving a task store from model version 1 to version 2 does besides the schema change:
/// hashtags in tasks' names and notes (`Buy milk #errands`) become tags, the text unchanged.
/// (Version 2 to 3 is the schema change alone: see ``TaskStore/migrationPlan()``.)
///
/// The schema change itself is inferred: the new attributes (`dueIsDay`, `priority`,
/// `completedAt`, `remindAt`) take their defaults, so every version 1 due stays the instant it
/// was, `priority` is normal, and tasks completed before have no completion time.
///
/// ```swift
/// .custom(from: 1, to: 2, didMigrate: { context in try TaskModelMigration.tagHashtags(in: context) })
/// ```
public enum TaskModelMigration {
    /// Gives every task the tags its name and notes name with hashtags (see ``Hashtags``),
    /// making each tag once (names compared without regard to case; the first spelling met, in
    /// task order, is kept). Leaves the changes unsaved; returns how many tags it made.
    ///
    /// - Parameter context: a context of the version 2 model, ``TaskModelV2`` (the stage's
    ///   `didMigrate`).
    /// - Throws: `PersistError` when the store cannot be read.
    @discardableResult
    public static func tagHashtags(in context: ManagedObjectContext) throws -> Int {
        // Which tasks each tag gets, keyed by the lower-cased name, in the order names are met.
        var members: [String: (name: String, tasks: [TaskModelV2.TaskItem])] = [:]
        var order: [String] = []
        // Creation order, so that "the first spelling" means the oldest task's.
        let tasks = try context.fetch(FetchRequest<TaskModelV2.TaskItem>(sortBy: [FetchSortDescriptor(\TaskModelV2.TaskItem.createdAt)]))
        for task in tasks {
            for name in Hashtags.names(name: task.name, notes: task.notes) {
                let key = name.lowercased()
                if members[key] == nil {
                    members[key] = (name, [])
                    order.append(key)
                }
                members[key]?.tasks.append(task)
            }
        }
        var existing: [String: TaskModelV2.Tag] = [:]
        for tag in try context.fetch(FetchRequest<TaskModelV2.Tag>()) { existing[tag.name.lowercased()] = tag }
        var made = 0
        for key in order {
            guard let entry = members[key] else { continue }
            // One assignment per tag (the context sets each task's side): assigning each task's
            // tags in turn would copy a growing set per task, quadratic in a tag's tasks.
            if let tag = existing[key] {
                tag.tasks = tag.tasks.union(entry.tasks)
            } else {
                let tag = TaskModelV2.Tag(context: context)
                tag.name = entry.name
                tag.tasks = Set(entry.tasks)
                made += 1
            }
        }
        return made
    }
}
