import ArgumentParser
import TaskModel

/// `tasks tag rename OLD NEW`, `tasks tag rm NAME`.
struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag", abstract: "Rename or remove a tag.", subcommands: [LabelRenameCommand<TagLabel>.self, Remove.self])

    /// `tasks tag rm NAME`: the tag goes; its tasks stay.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Remove a tag (its tasks stay, without it).")

        @Argument(help: ArgumentHelp("The tag's name.", valueName: "name"))
        var name: String
        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            let store = try storeOptions.open()
            let title = TerminalText.quoted(try store.tag(named: name)?.name ?? name)
            let count = try store.removeTag(named: name)
            try Console.out("Removed tag \(title)" + (count == 0 ? "" : " from " + NumberText.count(count, "task")))
        }
    }
}
