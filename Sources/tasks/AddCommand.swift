import ArgumentParser
import Foundation
import TaskModel

/// `tasks add NAME [--notes TEXT] [--due DATE] [--project NAME] [--tag NAME]... [--priority P]
/// [--remind DATE-TIME]`.
struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a task.")

    @Argument(help: "What to do.")
    var name: String
    @Option(help: "Notes about the task.")
    var notes: String?
    @Option(help: ArgumentHelp("When it is due: 2026-11-25, today, tomorrow, +3d, friday; or a day and a time.",
                               valueName: "date"))
    var due: String?
    @OptionGroup var fields: TaskFieldOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        var changes = try fields.changes()
        changes.name = name
        changes.notes = .some(notes)
        if let due { changes.due = .some(try Arguments.due(due)) }
        try Arguments.check(changes)
        let store = try storeOptions.open()
        let task = try store.add(name: name, changes)
        try Console.out("Added \(task.reference) \(TerminalText.quoted(task.name))")
    }
}
