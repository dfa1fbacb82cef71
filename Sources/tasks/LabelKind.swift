import TaskModel

/// What the commands of projects and of tags differ in: `tasks projects` / `tasks tags` and
/// `tasks project rename` / `tasks tag rename` are one command each, for either kind.
protocol LabelKind {
    /// "project" or "tag".
    static var noun: String { get }
    /// How a name is shown in lists: `+` for a project (`+Home`), `#` for a tag (`#errands`).
    static var prefix: String { get }
    /// What `tasks projects` or `tasks tags` says when there are none, with the way to make one.
    static var noneMessage: String { get }
    /// The name the store has for `name` (matched without regard to case), or nil.
    static func storedName(of name: String, in store: TaskStore) throws -> String?
    /// Renames; whether the name changed.
    static func rename(_ old: String, to new: String, in store: TaskStore) throws -> Bool
    /// Every one, with its open and done counts, by name.
    static func summaries(in store: TaskStore) throws -> [LabelSummary]
    /// The changes that would give a task a label of this name: what checks the name.
    static func changes(naming name: String) -> TaskChanges
}
