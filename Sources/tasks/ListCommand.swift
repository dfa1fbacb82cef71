import ArgumentParser
import Foundation
import TaskModel

/// `tasks list` (and plain `tasks`): the sections, their counts, one row per task.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List tasks: incomplete ones, then complete ones, each by due date.")

    @OptionGroup var list: ListOptions
    @OptionGroup var selection: ListSelection
    @Flag(name: .long, help: "Print JSON (see the README for its shape) instead of text.")
    var json = false
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let query = try selection.query(list)
        let store = try storeOptions.open()
        try selection.checkNames(in: store)
        let tasks = try store.tasks(query)
        let labels = try store.labels(of: tasks)
        let bySection = Dictionary(grouping: tasks) { TaskSection(isComplete: $0.isComplete) }
        let sections = list.filter.sections.map { (section: $0, tasks: bySection[$0] ?? []) }
        let dates = DateText()
        if json {
            let document = TaskJSON(sections: sections.map {
                TaskJSON.Section(name: $0.section.title, count: $0.tasks.count,
                                 tasks: $0.tasks.map { TaskJSON.Row($0, dates: dates, labels: labels) })
            })
            try Console.out(TaskJSONText.string(of: document))
            return
        }
        var lines = ListRenderer(style: .forStandardOutput(), dates: dates, labels: labels).lines(for: sections)
        if tasks.isEmpty && list.filter == .all && (list.search ?? "").isEmpty && !selection.narrows {
            lines += ["", "Nothing to do. Add a task with: tasks add \"Buy milk\" --due tomorrow"]
        }
        try Console.out(lines: lines)
    }
}
