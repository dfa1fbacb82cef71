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
        let labels = try store.labels(of: [task])
        if json {
            try Console.out(TaskJSONText.string(of: TaskJSON.Row(task, dates: dates, labels: labels)))
            return
        }
        let style = Style.forStandardOutput()
        try Console.out(lines: lines(of: task, labels: labels, dates: dates, style: style))
    }

    /// The lines of the text form: a title, then one line per value, the attachments, then
    /// the notes.
    private func lines(of task: TaskItem, labels: TaskLabels, dates: DateText, style: Style) -> [String] {
        let tags: [String] = labels.tags(of: task).map { "#" + TerminalText.visible($0) }
        let status: String = (task.isComplete ? "complete" : "incomplete") + ", " + task.priority.name + " priority"
        let due: String = task.due == nil ? "-" : dates.due(of: task, style: style)
        let remind: String = task.remindAt.map(dates.dayAndTime) ?? "-"
        let project: String = labels.project(of: task).map(TerminalText.visible) ?? "-"
        var lines: [String] = [style.bold("\(task.reference) \(task.isComplete ? "[x]" : "[ ]") \(TerminalText.visible(task.name))")]
        lines.append("Status:  " + status)
        lines.append("Due:     " + due)
        lines.append("Remind:  " + remind)
        lines.append("Project: " + project)
        lines.append("Tags:    " + (tags.isEmpty ? "-" : tags.joined(separator: " ")))
        lines.append("Created: " + dates.dayAndTime(task.createdAt))
        if let completedAt = task.completedAt {
            lines.append("Done:    " + dates.dayAndTime(completedAt))
        }
        let attachments = task.attachments
        if !attachments.isEmpty {
            lines.append("Attachments:")
            for (index, attachment) in attachments.enumerated() {
                lines.append("  \(index + 1). \(TerminalText.visible(attachment.fileName)) (\(TerminalText.visible(attachment.mediaType)), "
                             + "\(NumberText.bytes(attachment.size)))")
            }
        }
        if let notes = task.notes {
            lines.append("Notes:")
            // Any line break ends a line ("\r\n" included); other control characters show escaped.
            for line in notes.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
                lines.append("  " + TerminalText.visible(String(line)))
            }
        }
        return lines
    }
}
