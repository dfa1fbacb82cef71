import ArgumentParser
import Foundation
import TaskModel

/// `tasks edit REF [--name NAME] [--notes TEXT] [--due DATE | --no-due] [--project NAME | --no-project]
/// [--tag NAME]... [--untag NAME]... [--priority P] [--remind DATE-TIME | --no-remind]`.
struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a task's name, notes, due date, project, tags, priority or reminder.")

    @Argument(help: ArgumentHelp("The task's number: 12 or '#12'.", valueName: "ref"))
    var reference: String
    @Option(help: "The new name.")
    var name: String?
    @Option(help: "The new notes (\"\" removes them).")
    var notes: String?
    @Option(help: ArgumentHelp("The new due date: 2026-11-25, today, tomorrow, +3d, friday; or a day and a time.",
                               valueName: "date"))
    var due: String?
    @Flag(name: .customLong("no-due"), help: "Remove the due date.")
    var noDue = false
    @OptionGroup var fields: TaskFieldOptions
    @OptionGroup var removals: TaskRemovalOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let number = try Arguments.reference(reference)
        if due != nil && noDue { throw CommandError.usage("--due and --no-due cannot be used together") }
        if name == nil && notes == nil && due == nil && !noDue && fields.isEmpty && removals.isEmpty {
            throw CommandError.usage("nothing to change: give --name, --notes, --due, --no-due, --project, --no-project, "
                                     + "--tag, --untag, --priority, --remind or --no-remind")
        }
        try removals.checkConflicts(with: fields)
        var changes = try fields.changes()
        removals.add(to: &changes)
        changes.name = name
        if let notes { changes.notes = .some(notes) }
        if let due { changes.due = .some(try Arguments.due(due)) } else if noDue { changes.due = .some(nil) }
        try Arguments.check(changes)
        let store = try storeOptions.open()
        let task = try store.task(withReference: number)
        guard try store.edit(task, changes) else {
            try Console.out("Nothing changed: \(task.reference) \(TerminalText.quoted(task.name)) already was as asked")
            return
        }
        try Console.out("Updated \(task.reference) \(TerminalText.quoted(task.name))")
    }
}
