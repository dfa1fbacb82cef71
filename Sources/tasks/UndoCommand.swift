import ArgumentParser
import TaskModel

/// `tasks undo REF`: marks a task incomplete again.
struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "undo", abstract: "Mark a complete task incomplete again.")

    @Argument(help: ArgumentHelp("The task's number: 12 or '#12'.", valueName: "ref"))
    var reference: String
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        try Completion.set(false, reference: reference, storeOptions: storeOptions)
    }
}
