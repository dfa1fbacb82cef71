import ArgumentParser
import Foundation
import TaskModel

/// `tasks export [FILE]`: every task as JSON, to a file or standard output.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write every task as JSON (to standard output without FILE).")

    @Argument(help: ArgumentHelp("The file to write; - or nothing for standard output.", valueName: "file"))
    var file: String?
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.open()
        let data = try store.exportDocument()
        guard let file, file != "-" else {
            try Console.outData(data + Data("\n".utf8))
            return
        }
        // Checked to the last byte: a full disk is an error, never a shorter file.
        try OutputFile.write(data, toPath: file)
        let count = try store.count()
        try Console.out("Exported \(NumberText.count(count, "task")) to \(TerminalText.visible(file))")
    }
}
