import ArgumentParser
import Foundation
import TaskModel

/// `tasks backlog`: the open tasks waiting in the backlog, high priority first, then the
/// longest waiting.
struct BacklogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backlog",
        abstract: "List the backlog: open tasks a review or unplan moved off a plan, high priority first, then the longest waiting.")

    @Flag(name: .long, help: "Print JSON: {\"backlog\": [tasks as in list --json]}.")
    var json = false
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.open()
        let tasks = try store.backlog()
        let dates = DateText()
        let labels = try store.labels(of: tasks)
        if json {
            try Console.out(TaskJSONText.string(of: ["backlog": tasks.map { TaskJSON.Row($0, dates: dates, labels: labels) }]))
            return
        }
        guard !tasks.isEmpty else {
            try Console.out("The backlog is empty. A review moves there what a day's plan did not get done; so does tasks unplan.")
            return
        }
        var renderer = ListRenderer(style: .forStandardOutput(), dates: dates, labels: labels)
        renderer.note = { task in
            task.backloggedAt.map { "since " + dates.dayName(CalendarDay(date: $0, calendar: dates.calendar)) }
        }
        try Console.out(lines: renderer.lines(for: [ListRenderer.Group(title: "Backlog (\(NumberText.grouped(tasks.count)))",
                                                                       tasks: tasks)]))
    }
}
