import ArgumentParser
import Foundation
import TaskModel

/// `tasks attachments REF`: a task's attachments, numbered, without reading their bytes.
struct AttachmentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attachments", abstract: "List a task's attachments, numbered as tasks attachment and detach take them.")

    @Argument(help: ArgumentHelp("The task's number: 12 or '#12'.", valueName: "ref"))
    var reference: String
    @Flag(name: .long, help: "Print JSON: {\"task\": 3, \"attachments\": [{\"number\", \"fileName\", \"mediaType\", \"size\", \"createdAt\"}]}.")
    var json = false
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let number = try Arguments.reference(reference)
        let store = try storeOptions.open()
        let task = try store.task(withReference: number)
        let attachments = task.attachments
        if json {
            try Console.out(TaskJSONText.string(of: AttachmentListJSON(task: number, attachments)))
            return
        }
        let title = "\(task.reference) \(TerminalText.quoted(task.name))"
        guard !attachments.isEmpty else {
            try Console.out("\(title) has no attachments")
            return
        }
        let style = Style.forStandardOutput()
        let dates = DateText()
        let numbers = attachments.indices.map { String($0 + 1) }
        let names = attachments.map { TerminalText.visible($0.fileName) }
        let types = attachments.map { TerminalText.visible($0.mediaType) }
        let sizes = attachments.map { NumberText.bytes($0.size) }
        let widths = [numbers, names, types, sizes].map { column in column.map(DisplayWidth.of).max() ?? 0 }
        var lines = [style.bold(title) + ": " + NumberText.count(attachments.count, "attachment")]
        for index in attachments.indices {
            lines.append("  " + pad(numbers[index], widths[0], left: true) + "  " + pad(names[index], widths[1]) + "  "
                         + pad(types[index], widths[2]) + "  " + pad(sizes[index], widths[3], left: true) + "  "
                         + style.dim(dates.dayAndTime(attachments[index].createdAt)))
        }
        try Console.out(lines: lines)
    }

    private func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let spaces = String(repeating: " ", count: max(0, width - DisplayWidth.of(text)))
        return left ? spaces + text : text + spaces
    }
}
