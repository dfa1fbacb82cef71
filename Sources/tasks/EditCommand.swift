import ArgumentParser
import Foundation
import TaskModel

/// `tasks edit REF [--name NAME] [--notes TEXT] [--due DATE | --no-due]`.
struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a task's name, notes or due date.")

    @Argument(help: ArgumentHelp("The task's number: 12 or '#12'.", valueName: "ref"))
    var reference: String
    @Option(help: "The new name.")
    var name: String?
    @Option(help: "The new notes (\"\" removes them).")
    var notes: String?
    @Option(help: ArgumentHelp("The new due date: 2026-11-25, today, tomorrow, +3d, friday.", valueName: "date"))
    var due: String?
    @Flag(name: .customLong("no-due"), help: "Remove the due date.")
    var noDue = false
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let number = try Arguments.reference(reference)
        if due != nil && noDue { throw CommandError.usage("--due and --no-due cannot be used together") }
        if name == nil && notes == nil && due == nil && !noDue {
            throw CommandError.usage("nothing to change: give --name, --notes, --due or --no-due")
        }
        let dueDate = try due.map { try Arguments.dueDate($0) }
        let store = try storeOptions.open()
        let task = try store.task(withReference: number)
        try store.update(task, name: name ?? task.name, notes: notes ?? task.notes,
                         due: noDue ? nil : (dueDate ?? task.due))
        try Console.out("Updated \(task.reference) \(TerminalText.quoted(task.name))")
    }
}
