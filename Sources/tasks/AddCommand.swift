import ArgumentParser
import Foundation
import TaskModel

/// `tasks add NAME [--notes TEXT] [--due DATE]`.
struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a task.")

    @Argument(help: "What to do.")
    var name: String
    @Option(help: "Notes about the task.")
    var notes: String?
    @Option(help: ArgumentHelp("When it is due: 2026-11-25, today, tomorrow, +3d, friday.", valueName: "date"))
    var due: String?
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let dueDate = try due.map { try Arguments.dueDate($0) }
        let store = try storeOptions.open()
        let task = try store.add(name: name, notes: notes, due: dueDate)
        try Console.out("Added \(task.reference) \(TerminalText.quoted(task.name))")
    }
}
