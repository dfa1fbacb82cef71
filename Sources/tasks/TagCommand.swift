import ArgumentParser
import TaskModel

/// `tasks tag rename OLD NEW`, `tasks tag rm NAME`.
struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag", abstract: "Rename or remove a tag.", subcommands: [Rename.self, Remove.self])

    /// `tasks tag rename OLD NEW`.
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a tag.")

        @Argument(help: ArgumentHelp("The tag's name.", valueName: "old"))
        var old: String
        @Argument(help: ArgumentHelp("Its new name.", valueName: "new"))
        var new: String
        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            let store = try storeOptions.open()
            let current = try store.tag(named: old)?.name ?? old
            try store.renameTag(old, to: new)
            let renamed = try store.tag(named: new)?.name ?? new
            try Console.out("Renamed tag \(TerminalText.quoted(current)) to \(TerminalText.quoted(renamed))")
        }
    }

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
            try Console.out("Removed tag \(title)" + (count == 0 ? "" : " from \(count) task\(count == 1 ? "" : "s")"))
        }
    }
}
