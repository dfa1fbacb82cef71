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
            --store PATH). A new store starts with a few example tasks (one that import makes \
            holds only what it imported).

            A task is referred to by its number, shown as #12 (type 12 or '#12': an unquoted # \
            starts a shell comment). DATE is 2026-11-25, today, tomorrow, +3d, +2w, or a weekday \
            name (the next such day): a calendar day, the same day in every time zone; a due can \
            also be a day and a time. DATE-TIME (--remind) is a day and a time ('tomorrow 9am', \
            '2026-11-25 14:30'), a time today (18:00) or an offset from now (+30m, +2h).

            A task can be filed in a project (--project, shown as +Home) and carry tags (--tag, \
            shown as #errands); both are made on first use, and names are matched without regard \
            to case. A priority is low, normal (the default) or high.

            Each day has a plan that holds at most a few open tasks of each priority (tasks \
            limits): tasks today shows it, tasks plan and tasks unplan change it, and tasks review \
            ends the day, once; what was not done waits in the backlog (tasks backlog), or goes on \
            to the next day with --carry.

            A task can carry copies of files (tasks attach): their bytes live in the store, the \
            large ones in the folder beside the store file (tasks.sqlite-external/), which is \
            part of the store: copy, move and delete it with the store file.

            Control characters in names and notes are printed as visible escapes, such as \\u{1B} \
            for ESC; --json output keeps the exact text. Dates follow LC_ALL, LC_TIME or LANG \
            (plain ASCII in the C locale); TASKS_NOW (an ISO 8601 instant) fixes the time tasks \
            takes as now.
            """,
        version: Tasks.version,
        subcommands: [ListCommand.self, AddCommand.self, ShowCommand.self, EditCommand.self, DoneCommand.self,
                      UndoCommand.self, RemoveCommand.self, LabelListCommand<ProjectLabel>.self, ProjectCommand.self,
                      LabelListCommand<TagLabel>.self, TagCommand.self, TodayCommand.self, PlanCommand.self,
                      UnplanCommand.self, BacklogCommand.self, ReviewCommand.self, LimitsCommand.self, StatsCommand.self,
                      AttachCommand.self, AttachmentsCommand.self, AttachmentCommand.self, DetachCommand.self,
                      ExportCommand.self, ImportCommand.self, WatchCommand.self, SyncCommand.self],
        defaultSubcommand: ListCommand.self
    )

    /// The version `tasks --version` prints; the only place it is written.
    static let version = "0.2.0"

    /// Runs the command line, reporting every failure as one line on standard error (control
    /// characters made visible): exit code 1 for a command that failed, argument-parser's usage
    /// code (64) for bad usage.
    static func main() {
        let status: Int32
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            _ = try Clock.fixed()
            var command = try parse(arguments)
            try command.run()
            status = 0
        } catch let error as CommandError {
            Console.error("tasks: " + TerminalText.visible(error.message))
            status = error.exitCode
        } catch let error as PersistError {
            Console.error("tasks: " + TerminalText.visible(ErrorText.line(for: error)))
            status = 1
        } catch {
            status = report(error, arguments: arguments)
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

    /// Help and version on standard output (checked like every other write), in
    /// argument-parser's words; its usage errors as one line on standard error, as every other
    /// error (the usage itself is for `--help`).
    private static func report(_ error: Error, arguments: [String]) -> Int32 {
        let code = exitCode(for: error)
        guard code == .success else {
            let text = message(for: error)
            if !text.isEmpty {
                Console.error("tasks: " + TerminalText.visible(ErrorText.usageLine(parserMessage: text,
                                                                                   helpCommand: helpCommand(for: arguments))))
            }
            return code.rawValue
        }
        do {
            let text = fullMessage(for: error)
            if !text.isEmpty { try Console.out(text) }
            return code.rawValue
        } catch let error as CommandError {
            Console.error("tasks: " + error.message)
            return error.exitCode
        } catch {
            return ExitCode.failure.rawValue
        }
    }

    /// `tasks project rename`: the command (and subcommand) the arguments name, for the hint
    /// of a usage error; `tasks list` when they name none (the default command).
    static func helpCommand(for arguments: [String]) -> String {
        var words = ["tasks"]
        var commands = configuration.subcommands
        for argument in arguments {
            guard let command = commands.first(where: { $0.configuration.commandName == argument }) else { break }
            words.append(argument)
            commands = command.configuration.subcommands
        }
        if words.count == 1 { words.append("list") }
        return words.joined(separator: " ")
    }
}
