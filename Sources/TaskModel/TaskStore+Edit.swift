import Foundation
import PersistKit

extension TaskStore {
    /// Changes whose names are cleaned and checked, ready to apply inside a save.
    struct CheckedChanges {
        var changes: TaskChanges
        /// The project's cleaned name; nil to leave the project, `.some(nil)` to remove it.
        var project: String??
        var addedTags: [String]
        var removedTags: [String]
    }

    /// Cleans and checks every name in `changes`, before anything is changed.
    ///
    /// - Throws: `PersistError` `.validation` for a bad task, project or tag name.
    static func check(_ changes: TaskChanges) throws -> CheckedChanges {
        var changes = changes
        if let name = changes.name {
            changes.name = TaskStore.cleanName(name)
            try TaskItem.validate(name: TaskStore.cleanName(name))
        }
        var project: String??
        if let requested = changes.project {
            if let name = requested {
                let clean = LabelName.clean(name, kind: .project)
                try LabelName.validate(clean, kind: .project)
                project = .some(clean)
            } else {
                project = .some(nil)
            }
        }
        func tags(_ names: [String]) throws -> [String] {
            var seen = Set<String>()
            var result: [String] = []
            for name in names {
                let clean = LabelName.clean(name, kind: .tag)
                try LabelName.validate(clean, kind: .tag)
                if seen.insert(clean.lowercased()).inserted { result.append(clean) }
            }
            return result
        }
        return CheckedChanges(changes: changes, project: project, addedTags: try tags(changes.addedTags),
                              removedTags: try tags(changes.removedTags))
    }

    /// Sets what the changes set on `task`; runs inside ``saving(_:)``.
    func apply(_ checked: CheckedChanges, to task: TaskItem) throws {
        let changes = checked.changes
        if let name = changes.name { task.name = name }
        if let notes = changes.notes { task.notes = TaskStore.cleanNotes(notes) }
        if let due = changes.due { setDue(due, of: task) }
        if let priority = changes.priority { task.priority = priority }
        if let remindAt = changes.remindAt { task.remindAt = remindAt.map(TaskDateCoding.normalized) }
        if let project = checked.project {
            if let name = project {
                task.project = try projectNamed(name, creating: true)
            } else {
                task.project = nil
            }
        }
        if !checked.addedTags.isEmpty || !checked.removedTags.isEmpty {
            var tags = task.tags
            for name in checked.addedTags {
                if let tag = try tagNamed(name, creating: true) { tags.insert(tag) }
            }
            let removed = Set(checked.removedTags.map { $0.lowercased() })
            tags = tags.filter { !removed.contains($0.name.lowercased()) }
            if tags != task.tags { task.tags = tags }
        }
    }

    private func setDue(_ due: TaskDue?, of task: TaskItem) {
        switch due {
        case .day(let day)?:
            task.due = day.storedInstant
            task.dueIsDay = true
        case .time(let date)?:
            task.due = TaskDateCoding.normalized(date)
            task.dueIsDay = false
        case nil:
            task.due = nil
            task.dueIsDay = false
        }
    }

    // MARK: Projects and tags by name

    /// The project named `name` (without regard to case); made (unsaved) when there is none
    /// and `creating` is true.
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    func projectNamed(_ name: String, creating: Bool) throws -> Project? {
        let request = FetchRequest<Project>(predicate: .equals(\Project.name, name, options: .caseInsensitive))
        if let found = try context.fetch(request).first { return found }
        guard creating else { return nil }
        let project = Project(context: context)
        project.name = name
        return project
    }

    /// The tag named `name` (without regard to case, a leading `#` ignored); made (unsaved)
    /// when there is none and `creating` is true.
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    func tagNamed(_ name: String, creating: Bool) throws -> Tag? {
        let clean = LabelName.clean(name, kind: .tag)
        let request = FetchRequest<Tag>(predicate: .equals(\Tag.name, clean, options: .caseInsensitive))
        if let found = try context.fetch(request).first { return found }
        guard creating else { return nil }
        let tag = Tag(context: context)
        tag.name = clean
        return tag
    }
}
