import Foundation
import PersistKit

// `FetchPredicate` and `FetchSortDescriptor` are spelled `PersistKit.` here: this file also imports
// Foundation, whose types of the same names would make the bare names ambiguous.
extension TaskStore {
    /// The tasks a filter and search select, in list order: incomplete before complete, each
    /// by due date (undated last), then by creation.
    ///
    /// ```swift
    /// let open = try store.tasks(.incomplete)
    /// let found = try store.tasks(.all, matching: "ÉCLAIR")   // finds "Buy an éclair"
    /// ```
    ///
    /// - Parameters:
    ///   - filter: all tasks, only incomplete ones, or only completed ones.
    ///   - text: text the name or the notes must contain, ignoring case and diacritics; nil
    ///     or blank for no search.
    /// - Throws: `PersistError` when the store cannot be read.
    public func tasks(_ filter: TaskFilter = .all, matching text: String? = nil) throws -> [TaskItem] {
        try context.fetch(TaskStore.fetchRequest(filter, matching: text))
    }

    /// How many tasks a filter and search select.
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func count(_ filter: TaskFilter = .all, matching text: String? = nil) throws -> Int {
        try context.count(for: TaskStore.fetchRequest(filter, matching: text))
    }

    /// A results controller over the tasks a filter and search select, in sections
    /// "Incomplete" then "Complete" (``TaskSection/init(_:)`` tells which is which), each
    /// ordered by due date with undated tasks last, then by creation. Call `performFetch()` on
    /// it before use.
    ///
    /// ```swift
    /// let results = store.resultsController(filter: .all)
    /// try results.performFetch()
    /// let token = results.observe { change in /* insertedRows, deletedRows, movedRows... */ }
    /// ```
    public func resultsController(filter: TaskFilter = .all, matching text: String? = nil) -> FetchedResultsController<TaskItem> {
        FetchedResultsController(fetchRequest: TaskStore.fetchRequest(filter, matching: text), context: context,
                                 sectionNameKeyPath: \TaskItem.isComplete)
    }

    /// The tasks a query selects, in its order (incomplete before complete).
    ///
    /// ```swift
    /// let home = try store.tasks(TaskQuery(filter: .incomplete, project: "Home", sort: .priority))
    /// ```
    ///
    /// A project or tag that does not exist selects no task.
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func tasks(_ query: TaskQuery) throws -> [TaskItem] {
        var predicate = TaskStore.predicate(query.filter, matching: query.search)
        if let priority = query.priority {
            let part: PersistKit.FetchPredicate<TaskItem> = \TaskItem.priority == priority
            predicate = predicate.map { $0 && part } ?? part
        }
        let fetched = try context.fetch(FetchRequest(predicate: predicate, sortBy: TaskStore.order(query.sort)))
        return try keepingRelated(fetched, project: query.project, tag: query.tag)
    }

    /// `tasks` narrowed to those in the project and with the tag named, by navigating from the
    /// project and the tag (`project.tasks`, `tag.tasks`).
    ///
    /// Predicates through relationships (`project.name ==[c] %@`, `ANY tags.name ==[c] %@`) will
    /// do this in the fetch itself; this is the one place to change then.
    func keepingRelated(_ tasks: [TaskItem], project: String?, tag: String?) throws -> [TaskItem] {
        var members: Set<ObjectIdentifier>?
        func narrow(to related: Set<TaskItem>) {
            let identifiers = Set(related.map(ObjectIdentifier.init))
            members = members.map { $0.intersection(identifiers) } ?? identifiers
        }
        if let project {
            guard let found = try projectNamed(LabelName.clean(project, kind: .project), creating: false) else { return [] }
            narrow(to: found.tasks)
        }
        if let tag {
            guard let found = try tagNamed(tag, creating: false) else { return [] }
            narrow(to: found.tasks)
        }
        guard let members else { return tasks }
        return tasks.filter { members.contains(ObjectIdentifier($0)) }
    }

    /// The sort descriptors of an order: incomplete first, then as `sort` says.
    public static func order(_ sort: TaskSort) -> [PersistKit.FetchSortDescriptor<TaskItem>] {
        switch sort {
        case .due:
            return listOrder
        case .priority:
            return [FetchSortDescriptor(\TaskItem.isComplete), FetchSortDescriptor(\TaskItem.priority, order: .reverse)]
                + listOrder.dropFirst()
        case .name:
            return [FetchSortDescriptor(\TaskItem.isComplete),
                    FetchSortDescriptor(\TaskItem.name, comparison: .localizedStandard),
                    FetchSortDescriptor(\TaskItem.createdAt)]
        }
    }

    /// The list order: incomplete first (false sorts before true), then by due date with
    /// undated tasks last, then by creation (ties by reference, as PersistKit breaks them).
    public static var listOrder: [FetchSortDescriptor<TaskItem>] {
        [FetchSortDescriptor(\TaskItem.isComplete),
         FetchSortDescriptor(\TaskItem.due, nils: .last),
         FetchSortDescriptor(\TaskItem.createdAt)]
    }

    /// The predicate a filter and search make: nil when they select every task.
    ///
    /// The search is `name CONTAINS[cd] text OR notes CONTAINS[cd] text`.
    public static func predicate(_ filter: TaskFilter, matching text: String?) -> FetchPredicate<TaskItem>? {
        var parts: [FetchPredicate<TaskItem>] = []
        switch filter {
        case .all: break
        case .incomplete: parts.append(\TaskItem.isComplete == false)
        case .completed: parts.append(\TaskItem.isComplete == true)
        }
        if let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty {
            let options: StringComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
            parts.append(FetchPredicate<TaskItem>.contains(\.name, text, options: options)
                         || FetchPredicate<TaskItem>.contains(\.notes, text, options: options))
        }
        guard var predicate = parts.first else { return nil }
        for part in parts.dropFirst() { predicate = predicate && part }
        return predicate
    }

    /// The fetch request behind ``tasks(_:matching:)`` and ``resultsController(filter:matching:)``.
    public static func fetchRequest(_ filter: TaskFilter, matching text: String?) -> FetchRequest<TaskItem> {
        FetchRequest(predicate: predicate(filter, matching: text), sortBy: listOrder)
    }
}
