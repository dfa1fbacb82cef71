import ArgumentParser
import TaskModel

/// `tasks detach REF N`: removes an attachment from a task.
struct DetachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detach", abstract: "Remove an attachment from a task (the ones after it move up a number).")

    @OptionGroup var target: AttachmentReference
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let numbers = try target.numbers()
        let store = try storeOptions.open()
        let (task, attachment) = try AttachmentReference.find(numbers, in: store)
        let fileName = attachment.fileName
        try store.detach(attachment)
        try Console.out("Detached \(TerminalText.visible(fileName)) from \(task.reference) \(TerminalText.quoted(task.name))")
    }
}
