import ArgumentParser
import Foundation
import PersistKit

/// `tasks`: a task list at the terminal, kept in a PersistKit store.
@main
struct Tasks: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tasks",
        abstract: "A task list: what is still to do, then what is done, each by due date.",
        discussion: """
            The store is --store PATH, else $TASKS_STORE, else $XDG_DATA_HOME/tasks/tasks.sqlite, \
            else ~/.local/share/tasks/tasks.sqlite (options follow the command: tasks add NAME \
            --store PATH). A new store starts with a few example tasks.

            A task is referred to by its number, shown as #12 (type 12 or '#12': an unquoted # \
            starts a shell comment). DATE is 2026-11-25, today, tomorrow, +3d, +2w, or a weekday \
            name (the next such day): a calendar day, the same day in every time zone; a due can \
            also be a day and a time. DATE-TIME (--remind) is a day and a time ('tomorrow 9am', \
            '2026-11-25 14:30'), a time today (18:00) or an offset from now (+30m, +2h).

            A task can be filed in a project (--project, shown as +Home) and carry tags (--tag, \
            shown as #errands); both are made on first use, and names are matched without regard \
            to case. A priority is low, normal (the default) or high.

            Control characters in names and notes are printed as visible escapes, such as \\u{1B} \
            for ESC; --json output keeps the exact text.
            """,
        version: Tasks.version,
        subcommands: [ListCommand.self, AddCommand.self, ShowCommand.self, EditCommand.self, DoneCommand.self,
                      UndoCommand.self, RemoveCommand.self, ProjectsCommand.self, ProjectCommand.self, TagsCommand.self,
                      TagCommand.self, StatsCommand.self, ExportCommand.self, ImportCommand.self, WatchCommand.self],
        defaultSubcommand: ListCommand.self
    )

    /// The version `tasks --version` prints; the only place it is written.
    static let version = "0.2.0"

    /// Runs the command line, reporting every failure as one line on standard error (control
    /// characters made visible): exit code 1 for a command that failed, argument-parser's usage
    /// code (64) for bad usage.
    static func main() {
        let status: Int32
        do {
            var command = try parse(Array(CommandLine.arguments.dropFirst()))
            try command.run()
            status = 0
        } catch let error as CommandError {
            Console.error("tasks: " + TerminalText.visible(error.message))
            status = error.exitCode
        } catch let error as PersistError {
            Console.error("tasks: " + TerminalText.visible(ErrorText.line(for: error)))
            status = 1
        } catch {
            status = report(error)
        }
        // The command (and its store) is gone by now: SQLite has checkpointed and closed.
        Foundation.exit(status)
    }

    /// The command the arguments name, with ``CommandLineCheck``'s clearer usage errors.
    private static func parse(_ arguments: [String]) throws -> ParsableCommand {
        try CommandLineCheck.checkCommand(arguments)
        do {
            return try parseAsRoot(arguments)
        } catch {
            throw CommandLineCheck.negativeReferenceError(in: arguments) ?? error
        }
    }

    /// Help, version, and argument-parser's own usage errors, in its own words: help and
    /// version on standard output (checked like every other write), errors on standard error.
    private static func report(_ error: Error) -> Int32 {
        let text = fullMessage(for: error)
        let code = exitCode(for: error)
        guard code == .success else {
            if !text.isEmpty { Console.error(text) }
            return code.rawValue
        }
        do {
            if !text.isEmpty { try Console.out(text) }
            return code.rawValue
        } catch let error as CommandError {
            Console.error("tasks: " + error.message)
            return error.exitCode
        } catch {
            return ExitCode.failure.rawValue
        }
    }
}
