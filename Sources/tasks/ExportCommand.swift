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
            Console.outData(data + Data("\n".utf8))
            return
        }
        do {
            try data.write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw CommandError.failure("cannot write \(file): " + FileErrors.reason(error, path: file))
        }
        let count = try store.count()
        Console.out("Exported \(count) task\(count == 1 ? "" : "s") to \(file)")
    }
}
