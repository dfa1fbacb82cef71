import TaskModel

/// Projects, for the commands that treat projects and tags alike.
enum ProjectLabel: LabelKind {
    static let noun = "project"
    static let prefix = "+"
    static let noneMessage = "No projects. File a task in one with: tasks add \"Fix the gate\" --project Home"

    static func storedName(of name: String, in store: TaskStore) throws -> String? {
        try store.project(named: name)?.name
    }

    static func rename(_ old: String, to new: String, in store: TaskStore) throws -> Bool {
        try store.renameProject(old, to: new)
    }

    static func summaries(in store: TaskStore) throws -> [LabelSummary] {
        try store.projectSummaries()
    }

    static func changes(naming name: String) -> TaskChanges {
        TaskChanges(project: .some(name))
    }
}
