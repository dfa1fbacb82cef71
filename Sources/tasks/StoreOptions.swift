import ArgumentParser
import Foundation
import PersistKit
import TaskModel

/// `--store PATH`, shared by every command, and how the store is found and opened.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The task store file (default: $TASKS_STORE, $XDG_DATA_HOME/tasks/tasks.sqlite, ~/.local/share/tasks/tasks.sqlite).",
        valueName: "path"))
    var store: String?

    /// Finds the store, creates its directory if needed, and opens it (a new store gets
    /// example tasks unless `stagesSampleData` is false, as for an import; a store of an older
    /// tasks is upgraded, saying so on standard error).
    ///
    /// - Throws: ``CommandError`` naming the path and the problem.
    func open(stagesSampleData: Bool = true,
              environment: [String: String] = ProcessInfo.processInfo.environment) throws -> TaskStore {
        let location = try StoreLocation.resolve(option: store, environment: environment)
        try location.createDirectory()
        try location.checkNotADirectory()
        let opened: TaskStore
        do {
            opened = try TaskStore(container: UpgradeProgress.container(url: location.url), stagesSampleData: stagesSampleData,
                                   clock: Clock.now)
        } catch let error as PersistError {
            throw CommandError.failure(ErrorText.openingLine(for: error, path: location.displayPath))
        }
        if let upgrade = opened.upgrade {
            // Standard error: the command's own output (JSON, an export) stays as it always is.
            Console.error("Upgraded \(TerminalText.visible(location.url.lastPathComponent)) to version \(upgrade.toVersion) "
                          + "(\(NumberText.count(upgrade.taskCount, "task")))")
        }
        return opened
    }
}
