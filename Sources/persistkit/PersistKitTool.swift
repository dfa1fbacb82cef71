import ArgumentParser
import Foundation
import PersistKit

/// `persistkit`: reads any PersistKit store without its application, through the model
/// document the store records. It never writes to a store.
@main
struct PersistKitTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "persistkit",
        abstract: "Looks inside PersistKit stores: their model, rows, history and health. It never changes a store.",
        discussion: """
            Every command opens the store read-only: the store's bytes stay as they were (SQLite may \
            create its -wal and -shm files next to it, as any reader of a WAL database does). A \
            store records the model it was written with, so no application code is needed; a \
            store written before stores recorded it gets its model at its application's next save.

            Examples:
              persistkit info tasks.sqlite
              persistkit check tasks.sqlite
              persistkit fetch tasks.sqlite Task --where "isComplete == NO AND name CONTAINS[c] 'milk'" --sort -due,name --limit 20
              persistkit fetch tasks.sqlite Task --json > tasks.json
              persistkit history tasks.sqlite --after 120 --author sync
              persistkit model diff Schema/TaskModel/1.json Schema/TaskModel/2.json

            Errors are one line on standard error. The exit code is 1 for a command that failed \
            (or found problems: check) and 64 for bad usage. Long work shows a progress bar on \
            standard error when it is a terminal, and nothing otherwise. PERSISTKIT_SQL_DEBUG=1 \
            prints every statement the command runs.
            """,
        version: "0.2.0",
        subcommands: [InfoCommand.self, CheckCommand.self, FetchCommand.self, HistoryCommand.self, ModelCommand.self]
    )

    /// Runs the command line: every failure is one line on standard error, exit code 1 for a
    /// command that failed, 64 for bad usage.
    static func main() {
        let status: Int32
        do {
            var command = try parseAsRoot(Array(CommandLine.arguments.dropFirst()))
            try command.run()
            status = 0
        } catch let error as ToolError {
            Output.error("persistkit: " + error.message)
            status = error.exitCode
        } catch let error as PersistError {
            Output.error("persistkit: " + ToolError.line(for: error))
            status = ExitCode.failure.rawValue
        } catch {
            status = report(error)
        }
        Foundation.exit(status)
    }

    /// Help and version on standard output; argument-parser's usage errors as one line.
    private static func report(_ error: Error) -> Int32 {
        let code = exitCode(for: error)
        let text = fullMessage(for: error)
        if code == .success {
            if !text.isEmpty { Output.line(text) }
            return code.rawValue
        }
        let first = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
        let message = first.hasPrefix("Error: ") ? String(first.dropFirst(7)) : first
        Output.error("persistkit: \(ToolError.lowercasedFirst(message)) (see persistkit --help)")
        return code.rawValue
    }
}
