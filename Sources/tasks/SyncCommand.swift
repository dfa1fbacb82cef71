import ArgumentParser
import Foundation

/// `tasks sync`: runs `tasks-sync` (built beside `tasks`: a program of its own, so that
/// `tasks` itself does not build the PostgreSQL client) on the store `tasks` uses. With
/// `--watch --list`, it runs `tasks-sync --watch` beside `watch`'s live list.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync the store with a space on a PostgreSQL server (one round, or --watch).",
        discussion: """
            The server is --server, else $TASKS_SYNC_URL (postgres://user:password@host:port/database); \
            the space is --space, else your user name. Offline, every change stays queued for the \
            next sync. Needs tasks-sync, built by `swift build --product tasks-sync`.
            """)

    @Option(name: .long, help: ArgumentHelp("The server (default: $TASKS_SYNC_URL).", valueName: "url"))
    var server: String?

    @Option(name: .long, help: ArgumentHelp("The space to sync (default: your user name).", valueName: "name"))
    var space: String?

    @Flag(name: .long, help: "Keep syncing until Ctrl-C.")
    var watch = false

    @Flag(name: .long, help: "With --watch: show the list and its changes, as `tasks watch` does.")
    var list = false

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        if list && !watch { throw CommandError.usage("--list goes with --watch") }
        let location = try StoreLocation.resolve(option: storeOptions.store, environment: ProcessInfo.processInfo.environment)
        try location.createDirectory()
        try location.checkNotADirectory()
        let helper = try Self.helper()
        var arguments = ["--store", location.url.path]
        if let server { arguments += ["--server", server] }
        if let space { arguments += ["--space", space] }
        if watch { arguments.append("--watch") }
        guard list else {
            // The helper takes over this process: its output, errors and exit code are tasks sync's.
            let argv = ([helper.path] + arguments).map { strdup($0) } + [nil]
            execv(helper.path, argv)
            throw CommandError.failure("cannot run \(helper.path): \(String(cString: strerror(errno)))")
        }
        let syncing = Process()
        syncing.executableURL = helper
        syncing.arguments = arguments
        // Its round lines go to standard error, out of the list's way.
        syncing.standardOutput = FileHandle.standardError
        try syncing.run()
        defer {
            if syncing.isRunning { syncing.interrupt() }
            while syncing.isRunning { usleep(10_000) }
        }
        let watchCommand = try WatchCommand.parse(["--store", location.url.path])
        try watchCommand.run()
    }

    /// `tasks-sync`, beside this `tasks` executable.
    static func helper() throws -> URL {
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let helper = executable.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("tasks-sync")
        guard FileManager.default.isExecutableFile(atPath: helper.path) else {
            throw CommandError.failure("sync is not built: run `swift build --product tasks-sync` (a program of its own, so that "
                                       + "tasks alone builds without the PostgreSQL client)")
        }
        return helper
    }
}
