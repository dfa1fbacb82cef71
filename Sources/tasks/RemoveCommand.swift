import ArgumentParser
import TaskModel

/// `tasks rm REF...`: removes tasks, all or none.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove tasks.")

    @OptionGroup var references: TaskReferences
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let numbers = try references.numbers()
        let store = try storeOptions.open()
        // Every reference is checked before anything is removed: one unknown task removes none.
        let tasks = try TaskReferences.tasks(numbers, in: store)
        let described = tasks.map { task in
            let attachments = task.attachments.count
            return "Removed \(task.reference) \(TerminalText.quoted(task.name))"
                + (attachments == 0 ? "" : " and its " + NumberText.count(attachments, "attachment"))
        }
        try store.remove(tasks)
        try Console.out(lines: described)
    }
}
