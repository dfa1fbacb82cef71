import ArgumentParser
import Foundation
import TaskModel

/// `tasks list` (and plain `tasks`): the sections, their counts, one row per task.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List tasks: incomplete ones, then complete ones, each by due date.")

    @OptionGroup var list: ListOptions
    @Flag(name: .long, help: "Print JSON (see the README for its shape) instead of text.")
    var json = false
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.open()
        let tasks = try store.tasks(list.filter, matching: list.search)
        let sections = list.filter.sections.map { section in
            (section: section, tasks: tasks.filter { $0.isComplete == section.isComplete })
        }
        let dates = DateText()
        if json {
            let document = TaskJSON(sections: sections.map {
                TaskJSON.Section(name: $0.section.title, count: $0.tasks.count, tasks: $0.tasks.map { TaskJSON.Row($0, dates: dates) })
            })
            Console.out(TaskJSON.text(of: document))
            return
        }
        let renderer = ListRenderer(style: .forStandardOutput(), dates: dates)
        for line in renderer.lines(for: sections) { Console.out(line) }
        if tasks.isEmpty && list.filter == .all && (list.search ?? "").isEmpty {
            Console.out("")
            Console.out("Nothing to do. Add a task with: tasks add \"Buy milk\" --due tomorrow")
        }
    }
}
