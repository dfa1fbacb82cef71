import Foundation
import PersistKit

/// A named group of tasks: "Home", "Work". A task is in at most one project.
///
/// ```swift
/// let task = try store.add(name: "Fix the gate", TaskChanges(project: "Home"))   // made on first use
/// task.project?.name                   // "Home"
/// try store.projectSummaries()         // each project with its open and done counts
/// ```
///
/// Names are unique, compared without regard to case ("home" finds "Home"). Deleting a project
/// leaves its tasks without one (the `nullify` rule); ``TaskStore/removeProject(named:_:)``
/// can remove them too.
public final class Project: ManagedObject {
    /// The most characters a project's (or tag's) name may have.
    public static let maximumNameLength = 100

    /// The name: unique, 1 to 100 characters, one line, trimmed.
    @Attribute(.unique, .minLength(1), .maxLength(Project.maximumNameLength)) public var name: String
    /// The project's tasks.
    @Relationship public var tasks: Set<TaskItem>

    /// Refuses a name that is empty, spans lines or is not trimmed.
    ///
    /// - Throws: `PersistError` `.validation` (entity "Project", attribute "name").
    override public func validateForSave() throws {
        guard !name.isEmpty, name.count <= Project.maximumNameLength else { return }
        try LabelName.validate(name, kind: .project)
    }
}
