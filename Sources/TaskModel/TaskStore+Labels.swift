import Foundation
import PersistKit

extension TaskStore {
    // MARK: Projects

    /// Every project, by name (ignoring case).
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func projects() throws -> [Project] {
        try context.fetch(FetchRequest<Project>(sortBy: [FetchSortDescriptor(\Project.name, comparison: .localizedStandard)]))
    }

    /// The project named `name` (without regard to case), or nil.
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func project(named name: String) throws -> Project? {
        try projectNamed(LabelName.clean(name, kind: .project), creating: false)
    }

    /// Every project with its open and done task counts, by name.
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func projectSummaries() throws -> [LabelSummary] {
        try projects().map { project in
            let done = project.tasks.reduce(0) { $0 + ($1.isComplete ? 1 : 0) }
            return LabelSummary(name: project.name, open: project.tasks.count - done, done: done)
        }
    }

    /// Renames a project; a change of case alone is a rename too. Returns whether the name
    /// changed (false when it already was `new`: nothing is written then).
    ///
    /// - Throws: `PersistError` `.objectNotFound` when there is no project `old`,
    ///   `.validation` for a bad new name or one another project has; nothing changes then.
    @discardableResult
    public func renameProject(_ old: String, to new: String) throws -> Bool {
        let project = try existingProject(old)
        let clean = LabelName.clean(new, kind: .project)
        try LabelName.validate(clean, kind: .project)
        if let other = try projectNamed(clean, creating: false), other !== project {
            throw PersistError(.validation, "a project named \"\(other.name)\" already exists", entity: Project.entityName,
                               attribute: "name")
        }
        guard project.name != clean else { return false }
        try saving { project.name = clean }
        return true
    }

    /// Removes a project, doing with its tasks what `removal` says; returns how many tasks it had.
    ///
    /// - Throws: `PersistError` `.objectNotFound` when there is no such project,
    ///   `.validation` when it has tasks and `removal` is ``ProjectRemoval/onlyIfEmpty``;
    ///   nothing changes then.
    @discardableResult
    public func removeProject(named name: String, _ removal: ProjectRemoval) throws -> Int {
        let project = try existingProject(name)
        let tasks = Array(project.tasks)
        if removal == .onlyIfEmpty && !tasks.isEmpty {
            throw PersistError(.validation, "project \"\(project.name)\" has \(tasks.count) task\(tasks.count == 1 ? "" : "s")",
                               entity: Project.entityName, attribute: "tasks")
        }
        let notices = removal == .withTasks ? try reminderNotices(of: tasks) : []
        try saving {
            if removal == .withTasks {
                for task in tasks { context.delete(task) }
                for notice in notices { context.delete(notice) }
            }
            // The nullify rule takes the remaining tasks out of the project.
            context.delete(project)
        }
        return tasks.count
    }

    private func existingProject(_ name: String) throws -> Project {
        guard let project = try project(named: name) else {
            throw PersistError(.objectNotFound, "no project named \"\(LabelName.clean(name, kind: .project))\"",
                               entity: Project.entityName)
        }
        return project
    }

    // MARK: Tags

    /// Every tag, by name (ignoring case).
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func tags() throws -> [Tag] {
        try context.fetch(FetchRequest<Tag>(sortBy: [FetchSortDescriptor(\Tag.name, comparison: .localizedStandard)]))
    }

    /// The tag named `name` (without regard to case, a leading `#` ignored), or nil.
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func tag(named name: String) throws -> Tag? {
        try tagNamed(name, creating: false)
    }

    /// Every tag with its open and done task counts, by name.
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func tagSummaries() throws -> [LabelSummary] {
        try tags().map { tag in
            let done = tag.tasks.reduce(0) { $0 + ($1.isComplete ? 1 : 0) }
            return LabelSummary(name: tag.name, open: tag.tasks.count - done, done: done)
        }
    }

    /// Renames a tag; a change of case alone is a rename too. Returns whether the name
    /// changed (false when it already was `new`: nothing is written then).
    ///
    /// - Throws: `PersistError` `.objectNotFound` when there is no tag `old`,
    ///   `.validation` for a bad new name or one another tag has; nothing changes then.
    @discardableResult
    public func renameTag(_ old: String, to new: String) throws -> Bool {
        let tag = try existingTag(old)
        let clean = LabelName.clean(new, kind: .tag)
        try LabelName.validate(clean, kind: .tag)
        if let other = try tagNamed(clean, creating: false), other !== tag {
            throw PersistError(.validation, "a tag named \"\(other.name)\" already exists", entity: Tag.entityName,
                               attribute: "name")
        }
        guard tag.name != clean else { return false }
        try saving { tag.name = clean }
        return true
    }

    /// Removes a tag (its tasks stay, without it); returns how many tasks had it.
    ///
    /// - Throws: `PersistError` `.objectNotFound` when there is no such tag.
    @discardableResult
    public func removeTag(named name: String) throws -> Int {
        let tag = try existingTag(name)
        let count = tag.tasks.count
        try saving { context.delete(tag) }
        return count
    }

    private func existingTag(_ name: String) throws -> Tag {
        guard let tag = try tag(named: name) else {
            throw PersistError(.objectNotFound, "no tag named \"\(LabelName.clean(name, kind: .tag))\"", entity: Tag.entityName)
        }
        return tag
    }

    // MARK: Labels of many tasks

    /// The project and tag names of `tasks` and the days they are planned for, read with one
    /// query per tag rather than one per task (a list of 50,000 tasks would otherwise make
    /// 50,000 queries).
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func labels(of tasks: [TaskItem]) throws -> TaskLabels {
        // Projects stay alive while their tasks' project is read: each read is then a lookup.
        let projects = try projects()
        var tagNames: [ObjectIdentifier: [String]] = [:]
        let allTags = try self.tags()
        if tasks.count < allTags.count {
            for task in tasks { tagNames[ObjectIdentifier(task)] = task.tagNames }
        } else {
            let wanted = Set(tasks.map(ObjectIdentifier.init))
            for tag in allTags {
                for task in tag.tasks where wanted.contains(ObjectIdentifier(task)) {
                    tagNames[ObjectIdentifier(task), default: []].append(tag.name)
                }
            }
        }
        // Days too: a task's day is then a lookup, not a query per task.
        let days = try context.fetch(FetchRequest<Day>())
        var projectNames: [ObjectIdentifier: String] = [:]
        var plannedDays: [ObjectIdentifier: CalendarDay] = [:]
        for task in tasks {
            if let project = task.project { projectNames[ObjectIdentifier(task)] = project.name }
            if let day = task.day { plannedDays[ObjectIdentifier(task)] = day.calendarDay }
        }
        withExtendedLifetime((projects, days)) {}
        return TaskLabels(projectNames: projectNames, tagNames: tagNames, plannedDays: plannedDays)
    }
}
