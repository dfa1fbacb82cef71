/// Which tasks a list shows, and in what order: a ``TaskFilter``, a search, a project, a tag, a
/// priority, and a sort.
///
/// ```swift
/// var query = TaskQuery(filter: .incomplete)
/// query.project = "Home"
/// query.tag = "errands"
/// query.sort = .priority
/// let tasks = try store.tasks(query)
/// ```
public struct TaskQuery: Sendable, Hashable {
    /// Complete, incomplete or all tasks.
    public var filter: TaskFilter
    /// Text the name or the notes must contain (ignoring case and diacritics); nil for any.
    public var search: String?
    /// The name of the project the tasks must be in (without regard to case); nil for any.
    public var project: String?
    /// The name of a tag the tasks must have (without regard to case); nil for any.
    public var tag: String?
    /// The priority the tasks must have; nil for any.
    public var priority: TaskPriority?
    /// The order within each section.
    public var sort: TaskSort

    /// A query; by default every task in list order.
    public init(filter: TaskFilter = .all, search: String? = nil, project: String? = nil, tag: String? = nil,
                priority: TaskPriority? = nil, sort: TaskSort = .due) {
        self.filter = filter
        self.search = search
        self.project = project
        self.tag = tag
        self.priority = priority
        self.sort = sort
    }
}

/// The order of tasks within a section (incomplete tasks always before complete ones).
public enum TaskSort: String, Sendable, Hashable, CaseIterable {
    /// By due date, undated last, then by creation: the list order.
    case due
    /// High priority first, then by due date as ``due``.
    case priority
    /// By name (ignoring case and accents, numbers by value), then by creation.
    case name
}
