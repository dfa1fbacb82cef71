import ArgumentParser
import Foundation
import PersistKit
import TaskModel
import TerminalProgress

/// `tasks import FILE`: adds the tasks of an export, skipping the ones already there.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the tasks of an export file.",
        discussion: """
            A task already in the store (same name, created at the same moment) is skipped, so \
            importing an export twice adds its tasks once; --keep-duplicates imports it anyway.
            """)

    @Argument(help: ArgumentHelp("The export file; - for standard input.", valueName: "file"))
    var file: String
    @Flag(name: .long, help: "Import tasks the store already has, too.")
    var keepDuplicates = false
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let data: Data
        do {
            data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CommandError.failure("cannot read \(file): " + FileErrors.reason(error, path: file))
        }
        // The file is read and checked before the store is opened: a bad file changes nothing.
        let document: TaskDocument
        do {
            document = try TaskDocument(data: data)
            try document.validate()
        } catch let error as PersistError {
            throw CommandError.failure("\(file == "-" ? "standard input" : file) is " + error.message)
        }
        // A store this import creates holds exactly what was imported: no examples (a backup
        // restored into a new store gives back the tasks exported, no more).
        let store = try storeOptions.open(stagesSampleData: false)
        // On a terminal, a bar: adding the tasks is the first half, the one save the second.
        let bar = ProgressBar()
        let result = try store.importDocument(document, duplicates: keepDuplicates ? .keep : .skip) { done, total in
            bar.show(done < total ? "adding tasks" : "saving \(NumberText.count(total, "task"))", done: done, total: 2 * total)
        }
        bar.clear()
        var text = "Imported " + NumberText.count(result.imported, "task")
        if result.skipped > 0 {
            text += " (skipped \(NumberText.grouped(result.skipped)) already in the store)"
        }
        try Console.out(text)
    }
}
