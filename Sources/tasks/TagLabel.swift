import TaskModel

/// Tags, for the commands that treat projects and tags alike.
enum TagLabel: LabelKind {
    static let noun = "tag"
    static let prefix = "#"
    static let noneMessage = "No tags. Tag a task with: tasks edit 12 --tag errands"

    static func storedName(of name: String, in store: TaskStore) throws -> String? {
        try store.tag(named: name)?.name
    }

    static func rename(_ old: String, to new: String, in store: TaskStore) throws -> Bool {
        try store.renameTag(old, to: new)
    }

    static func summaries(in store: TaskStore) throws -> [LabelSummary] {
        try store.tagSummaries()
    }

    static func changes(naming name: String) -> TaskChanges {
        TaskChanges(addedTags: [name])
    }
}
