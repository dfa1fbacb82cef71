/// What removing a project does with its tasks.
public enum ProjectRemoval: Sendable, Hashable {
    /// Remove the project only when it has no task; else refuse.
    case onlyIfEmpty
    /// Remove its tasks too.
    case withTasks
    /// Keep its tasks, without a project.
    case keepingTasks
}
