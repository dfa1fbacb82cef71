import ArgumentParser
import Foundation
import PersistKit
import TaskModel

/// `tasks attachment REF N [--output FILE]`: an attachment's bytes, exactly as attached.
struct AttachmentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attachment",
        abstract: "Write an attachment's bytes to standard output, or to a file with --output.",
        discussion: """
            N counts from 1, as tasks attachments lists them. Binary bytes are not written to a \
            terminal: redirect standard output or give --output.
            """)

    @OptionGroup var target: AttachmentReference
    @Option(name: [.short, .long], help: ArgumentHelp("The file to write (replaced whole); - for standard output.",
                                                      valueName: "file"))
    var output: String?
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let numbers = try target.numbers()
        let store = try storeOptions.open()
        let (task, attachment) = try AttachmentReference.find(numbers, in: store)
        let toStandardOutput = output == nil || output == "-"
        if toStandardOutput && Console.outputIsTerminal && !MediaType.isText(attachment.mediaType) {
            throw CommandError.failure("attachment \(numbers.attachment) of \(task.reference) is \(attachment.mediaType), not text: "
                                       + "redirect standard output or give --output FILE")
        }
        let contents = try attachment.readContents()
        guard let output, output != "-" else {
            try Console.outData(contents)
            return
        }
        // Checked to the last byte and replaced whole: a full disk is an error, never a shorter file.
        try OutputFile.write(contents, toPath: output)
        try Console.out("Wrote \(TerminalText.visible(attachment.fileName)) (\(NumberText.bytes(contents.count))) to "
                        + TerminalText.visible(output))
    }
}
