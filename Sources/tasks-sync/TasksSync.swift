import ArgumentParser
import Foundation
import PersistKit
import PersistKitSync
import Synchronization
import TaskModel

/// `tasks-sync`: what `tasks sync` runs (a program of its own, so that `tasks` does not build
/// PostgresNIO). One round, or `--watch` rounds until Ctrl-C; one line each; errors one line,
/// `tasks: ...`, nothing lost.
@main
struct TasksSync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tasks sync",
        abstract: "Sync the task store with a space on a PostgreSQL server.",
        discussion: """
            The server is --server, else $TASKS_SYNC_URL (postgres://user:password@host:port/database); \
            the space is --space, else your user name. Run by `tasks sync`, which finds the store.
            """)

    @Option(name: .long, help: ArgumentHelp("The task store file.", valueName: "path"))
    var store: String

    @Option(name: .long, help: ArgumentHelp("The server (default: $TASKS_SYNC_URL).", valueName: "url"))
    var server: String?

    @Option(name: .long, help: ArgumentHelp("The space to sync (default: your user name).", valueName: "name"))
    var space: String?

    @Flag(name: .long, help: "Keep syncing, a line per round that changed something, until Ctrl-C.")
    var watch = false

    static func main() async {
        let status: Int32
        do {
            let command = try parse(Array(CommandLine.arguments.dropFirst()))
            status = try await command.perform()
        } catch let error as PersistError {
            FileHandle.standardError.write(Data(("tasks: " + Self.line(for: error) + "\n").utf8))
            status = 1
        } catch {
            let text = fullMessage(for: error)
            let code = exitCode(for: error)
            if code == .success { print(text) } else { FileHandle.standardError.write(Data((text + "\n").utf8)) }
            status = code.rawValue
        }
        Foundation.exit(status)
    }

    /// The one line an error prints: what failed, the server, and that nothing was lost.
    static func line(for error: PersistError) -> String {
        var text = error.message
        if let server = error.server, !text.contains(server) { text += " (\(server))" }
        if error.code == .sync { text += "; local changes stay queued" }
        return text
    }

    private func perform() async throws -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        guard let url = server ?? environment["TASKS_SYNC_URL"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw ValidationError("no server: give --server postgres://user@host/database or set $TASKS_SYNC_URL")
        }
        guard let space = space ?? [environment["USER"], environment["LOGNAME"]].compactMap({ $0 }).first(where: { !$0.isEmpty }) else {
            throw ValidationError("no space: give --space NAME (or set $USER)")
        }
        let syncServer = try SyncServer(url: url)
        // A store that starts by syncing gets no example tasks: they would sync everywhere.
        let tasks = try TaskStore(url: URL(fileURLWithPath: self.store), stagesSampleData: false)
        var configuration = SyncConfiguration()
        // Reminders already shown are this machine's business; attachments keep their bytes in
        // files, which sync does not carry (they stay on the store that has them). The store's
        // record syncs: it keeps the daily limits (its one row per store merges into one per space).
        configuration.excludedEntities = ["ReminderNotice", "Attachment"]
        // TaskStore finds projects and tags without regard to case: so do the merges.
        configuration.uniqueAttributesIgnoringCase = ["Tag": ["name"], "Project": ["name"]]
        let engine = SyncEngine(container: tasks.container, server: syncServer, space: space, configuration: configuration)
        guard watch else {
            let report = try await engine.sync()
            Self.printLine("Synced \(space): " + Self.summary(report))
            return 0
        }
        Self.installInterrupt()
        Self.printLine("Syncing \(space) with \(syncServer.displayName); Ctrl-C to stop.")
        engine.start { result in
            switch result {
            case .success(let report) where report.sent > 0 || report.received > 0:
                Self.printLine(Self.summary(report))
            case .success:
                break
            case .failure(let error):
                FileHandle.standardError.write(Data(("tasks: " + Self.line(for: error) + " (trying again)\n").utf8))
            }
        }
        while !Self.interrupted.load(ordering: .relaxed) { try? await Task.sleep(nanoseconds: 50_000_000) }
        await engine.stop()
        return 0
    }

    /// `sent 2 changes, received 1 (0.03 s)`.
    static func summary(_ report: SyncReport) -> String {
        "sent \(report.sent) change\(report.sent == 1 ? "" : "s"), received \(report.received)"
            + (report.conflictsResolved > 0 ? ", \(report.conflictsResolved) conflict\(report.conflictsResolved == 1 ? "" : "s") resolved" : "")
            + String(format: " (%.2f s)", report.duration)
    }

    /// A line on standard output, written at once (a pipe would hold it back).
    static func printLine(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    private static let interrupted = Atomic<Bool>(false)

    private static func installInterrupt() {
        _ = interrupted.load(ordering: .relaxed)
        for signalNumber in [SIGINT, SIGTERM] {
            _ = signal(signalNumber) { _ in TasksSync.interrupted.store(true, ordering: .relaxed) }
        }
    }
}
