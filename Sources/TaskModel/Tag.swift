import Foundation
import PersistKit

/// A label on tasks: `errands`, `phone`. A task has any number of tags, a tag any number of tasks.
///
/// ```swift
/// try store.edit(task, TaskChanges(addedTags: ["errands"], removedTags: ["later"]))
/// task.tags.map(\.name)        // ["errands"]
/// ```
///
/// Names are unique, compared without regard to case, one word (no whitespace), written
/// without the `#` that `tasks` shows before them (a leading `#` given is dropped). Deleting a
/// tag takes it off its tasks.
public final class Tag: ManagedObject {
    /// The name: unique, 1 to 100 characters, no whitespace, no leading `#`.
    @Attribute(.unique, .minLength(1), .maxLength(Project.maximumNameLength)) public var name: String
    /// The tasks with this tag.
    @Relationship public var tasks: Set<TaskItem>

    /// Refuses a name with whitespace or a leading `#`.
    ///
    /// - Throws: `PersistError` `.validation` (entity "Tag", attribute "name").
    override public func validateForSave() throws {
        guard !name.isEmpty, name.count <= Project.maximumNameLength else { return }
        try LabelName.validate(name, kind: .tag)
    }
}
