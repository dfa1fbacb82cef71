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
        let described = tasks.map { "Removed \($0.reference) \(TerminalText.quoted($0.name))" }
        try store.remove(tasks)
        try Console.out(lines: described)
    }
}
