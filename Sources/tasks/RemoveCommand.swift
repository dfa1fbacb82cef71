import ArgumentParser
import TaskModel

/// `tasks rm REF...`: removes tasks, all or none.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove tasks.")

    @Argument(help: ArgumentHelp("The tasks' numbers: 12 or '#12'.", valueName: "ref"))
    var references: [String]
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        var numbers: [Int64] = []
        for reference in references {
            let number = try Arguments.reference(reference)
            if !numbers.contains(number) { numbers.append(number) }
        }
        let store = try storeOptions.open()
        // Every reference is checked before anything is removed: one unknown task removes none.
        let tasks = try numbers.map { try store.task(withReference: $0) }
        let described = tasks.map { "Removed \($0.reference) \(TerminalText.quoted($0.name))" }
        try store.remove(tasks)
        try Console.out(lines: described)
    }
}
