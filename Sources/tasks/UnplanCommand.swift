import ArgumentParser
import Foundation
import TaskModel

/// `tasks unplan REF...`: takes tasks off their day's plan; open ones wait in the backlog.
struct UnplanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unplan", abstract: "Take tasks off their day's plan: the open ones go to the backlog.")

    @OptionGroup var references: TaskReferences
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let numbers = try references.numbers()
        let store = try storeOptions.open()
        let tasks = try TaskReferences.tasks(numbers, in: store)
        let before = try store.unplan(tasks)
        let dates = DateText()
        try Console.out(lines: zip(tasks, before).map { task, place in
            let title = "\(task.reference) \(TerminalText.quoted(task.name))"
            guard case .day(let day) = place else { return "\(title) is not planned" }
            return "Unplanned \(title) (from \(dates.dayName(day)))" + (task.isComplete ? "" : ": it waits in the backlog")
        })
    }
}
