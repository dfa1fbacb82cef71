import ArgumentParser
import Foundation
import TaskModel

/// `tasks show REF`: every detail of one task.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one task in full.")

    @Argument(help: ArgumentHelp("The task's number: 12 or '#12'.", valueName: "ref"))
    var reference: String
    @Flag(name: .long, help: "Print JSON (a task as in list --json).")
    var json = false
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let number = try Arguments.reference(reference)
        let store = try storeOptions.open()
        let task = try store.task(withReference: number)
        let dates = DateText()
        if json {
            try Console.out(TaskJSON.text(of: TaskJSON.Row(task, dates: dates)))
            return
        }
        let style = Style.forStandardOutput()
        var lines = [
            style.bold("\(task.reference) \(task.isComplete ? "[x]" : "[ ]") \(TerminalText.visible(task.name))"),
            "Status:  " + (task.isComplete ? "complete" : "incomplete"),
            "Due:     " + (task.due == nil ? "-" : dates.due(of: task, style: style)),
            "Created: " + dates.dayAndTime(task.createdAt),
        ]
        if let notes = task.notes {
            lines.append("Notes:")
            // Any line break ends a line ("\r\n" included); other control characters show escaped.
            for line in notes.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
                lines.append("  " + TerminalText.visible(String(line)))
            }
        }
        try Console.out(lines: lines)
    }
}
