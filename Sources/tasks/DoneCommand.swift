import ArgumentParser
import TaskModel

/// `tasks done REF`: marks a task complete.
struct DoneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "done", abstract: "Mark a task complete.")

    @Argument(help: ArgumentHelp("The task's number: 12 or '#12'.", valueName: "ref"))
    var reference: String
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        try Completion.set(true, reference: reference, storeOptions: storeOptions)
    }
}
