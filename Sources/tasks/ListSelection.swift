import ArgumentParser
import TaskModel

/// What `list` narrows and orders by besides ``ListOptions``: `--project`, `--tag`,
/// `--priority`, `--sort`.
struct ListSelection: ParsableArguments {
    @Option(help: ArgumentHelp("Show only tasks in this project.", valueName: "name"))
    var project: String?
    @Option(help: ArgumentHelp("Show only tasks with this tag.", valueName: "name"))
    var tag: String?
    @Option(help: ArgumentHelp("Show only tasks of this priority: low, normal or high.", valueName: "priority"))
    var priority: String?
    @Option(help: ArgumentHelp("Order each section by due (the default), priority or name.", valueName: "order"))
    var sort: String?

    /// Whether a project, tag or priority narrows the list.
    var narrows: Bool { project != nil || tag != nil || priority != nil }

    /// The query for these options and `list`'s.
    ///
    /// - Throws: a usage ``CommandError`` for a bad priority or sort.
    func query(_ list: ListOptions) throws -> TaskQuery {
        var query = TaskQuery(filter: list.filter, search: list.search, project: project, tag: tag)
        query.priority = try priority.map(Arguments.priority)
        if let sort {
            guard let order = TaskSort(rawValue: sort.lowercased()) else {
                throw CommandError.usage("'\(sort)' is not an order (try due, priority or name)")
            }
            query.sort = order
        }
        return query
    }

    /// - Throws: a failure ``CommandError`` when the project or tag named does not exist, so
    ///   that a misspelt name is not mistaken for an empty list.
    func checkNames(in store: TaskStore) throws {
        if let project, try store.project(named: project) == nil {
            throw CommandError.failure("no project named \(TerminalText.quoted(project))")
        }
        if let tag, try store.tag(named: tag) == nil {
            throw CommandError.failure("no tag named \(TerminalText.quoted(tag))")
        }
    }
}
