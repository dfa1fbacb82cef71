import Foundation
import PersistKit

/// What moving a task store from model version 1 to version 2 does besides the schema change:
/// hashtags in tasks' names and notes (`Buy milk #errands`) become tags, the text unchanged.
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
    /// - Parameter context: a context of a version 2 model (the migration's `didMigrate`).
    /// - Throws: ``PersistKit/PersistError`` when the store cannot be read.
    @discardableResult
    public static func tagHashtags(in context: ManagedObjectContext) throws -> Int {
        var tags: [String: Tag] = [:]
        for existing in try context.fetch(FetchRequest<Tag>()) { tags[existing.name.lowercased()] = existing }
        let before = tags.count
        // Creation order, so that "the first spelling" means the oldest task's.
        let tasks = try context.fetch(FetchRequest<TaskItem>(sortBy: [FetchSortDescriptor(\TaskItem.createdAt)]))
        for task in tasks {
            let names = Hashtags.names(name: task.name, notes: task.notes)
            guard !names.isEmpty else { continue }
            var taskTags = task.tags
            for name in names {
                let key = name.lowercased()
                if let tag = tags[key] {
                    taskTags.insert(tag)
                } else {
                    let tag = Tag(context: context)
                    tag.name = name
                    tags[key] = tag
                    taskTags.insert(tag)
                }
            }
            task.tags = taskTags
        }
        return tags.count - before
    }
}
