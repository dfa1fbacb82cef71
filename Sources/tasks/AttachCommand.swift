import ArgumentParser
import Foundation
import PersistKit
import TaskModel

/// `tasks attach REF FILE`: keeps a copy of a file with a task.
struct AttachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Attach a copy of a file to a task.",
        discussion: """
            The file's bytes are copied into the store (up to 100 MB): ones above 100 KB into \
            the folder beside the store file (tasks.sqlite-external/), which belongs with it. \
            The media type comes from the file name's extension unless --type gives it.
            """)

    @Argument(help: ArgumentHelp("The task's number: 12 or '#12'.", valueName: "ref"))
    var reference: String
    @Argument(help: ArgumentHelp("The file to attach.", valueName: "file"))
    var file: String
    @Option(name: .long, help: ArgumentHelp("The media type, such as image/jpeg (default: from the file name).",
                                            valueName: "type"))
    var type: String?
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let number = try Arguments.reference(reference)
        let fileName = AttachmentFile.fileName(of: file)
        do {
            if let type { try Attachment.validate(mediaType: type) }
            try Attachment.validate(fileName: fileName)
        } catch let error as PersistError {
            throw CommandError.usage(ErrorText.line(for: error))
        }
        // The file is read before the store is opened: a missing one changes nothing.
        let contents = try AttachmentFile.read(file)
        let store = try storeOptions.open()
        let task = try store.task(withReference: number)
        let attachment = try store.attach(contents, fileName: fileName, mediaType: type, to: task)
        try Console.out("Attached \(TerminalText.visible(fileName)) to \(task.reference) \(TerminalText.quoted(task.name)) "
                        + "as attachment \(task.attachments.count) (\(attachment.mediaType), \(NumberText.bytes(attachment.size)))")
    }
}
