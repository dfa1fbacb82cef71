import ArgumentParser
import PersistKit
import TaskModel

/// `tasks project rename OLD NEW`, `tasks project rm NAME [--with-tasks | --keep-tasks]`.
struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project", abstract: "Rename or remove a project.",
        subcommands: [Rename.self, Remove.self])

    /// `tasks project rename OLD NEW`.
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a project.")

        @Argument(help: ArgumentHelp("The project's name.", valueName: "old"))
        var old: String
        @Argument(help: ArgumentHelp("Its new name.", valueName: "new"))
        var new: String
        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            let store = try storeOptions.open()
            let current = try store.project(named: old)?.name ?? old
            try store.renameProject(old, to: new)
            let renamed = try store.project(named: new)?.name ?? new
            try Console.out("Renamed project \(TerminalText.quoted(current)) to \(TerminalText.quoted(renamed))")
        }
    }

    /// `tasks project rm NAME [--with-tasks | --keep-tasks]`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Remove a project (refused while it has tasks, unless told what to do with them).")

        @Argument(help: ArgumentHelp("The project's name.", valueName: "name"))
        var name: String
        @Flag(name: .long, help: "Remove the project's tasks too.")
        var withTasks = false
        @Flag(name: .long, help: "Keep the project's tasks, without a project.")
        var keepTasks = false
        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            if withTasks && keepTasks { throw CommandError.usage("--with-tasks and --keep-tasks cannot be used together") }
            let store = try storeOptions.open()
            guard let project = try store.project(named: name) else {
                throw CommandError.failure("no project named \(TerminalText.quoted(name))")
            }
            let title = TerminalText.quoted(project.name)
            let count = project.tasks.count
            if count > 0 && !withTasks && !keepTasks {
                throw CommandError.failure("project \(title) has \(count) task\(count == 1 ? "" : "s"): give --with-tasks "
                                           + "to remove \(count == 1 ? "it" : "them") too, or --keep-tasks to keep "
                                           + "\(count == 1 ? "it" : "them") without a project")
            }
            try store.removeProject(named: project.name, withTasks ? .withTasks : .keepingTasks)
            let tasks = "\(count) task\(count == 1 ? "" : "s")"
            switch (count, withTasks) {
            case (0, _): try Console.out("Removed project \(title)")
            case (_, true): try Console.out("Removed project \(title) and its \(tasks)")
            case (_, false): try Console.out("Removed project \(title); its \(tasks) kept without a project")
            }
        }
    }
}
