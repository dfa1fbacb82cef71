import ArgumentParser
import PersistKit
import TaskModel

/// `tasks project rename OLD NEW`, `tasks project rm NAME [--with-tasks | --keep-tasks]`.
struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project", abstract: "Rename or remove a project.",
        subcommands: [LabelRenameCommand<ProjectLabel>.self, Remove.self])

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
            let them = count == 1 ? "it" : "them"
            if count > 0 && !withTasks && !keepTasks {
                throw CommandError.failure("project \(title) has \(NumberText.count(count, "task")): give --with-tasks "
                                           + "to remove \(them) too, or --keep-tasks to keep \(them) without a project")
            }
            try store.removeProject(named: project.name, withTasks ? .withTasks : .keepingTasks)
            let tasks = NumberText.count(count, "task")
            switch (count, withTasks) {
            case (0, _): try Console.out("Removed project \(title)")
            case (_, true): try Console.out("Removed project \(title) and its \(tasks)")
            case (_, false): try Console.out("Removed project \(title); its \(tasks) kept without a project")
            }
        }
    }
}
