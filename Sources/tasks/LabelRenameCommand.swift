import ArgumentParser
import TaskModel

/// `tasks project rename OLD NEW` and `tasks tag rename OLD NEW`.
struct LabelRenameCommand<Kind: LabelKind>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "rename", abstract: "Rename a \(Kind.noun).")
    }

    @Argument(help: ArgumentHelp("The \(Kind.noun)'s name.", valueName: "old"))
    var old: String
    @Argument(help: ArgumentHelp("Its new name.", valueName: "new"))
    var new: String
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        try Arguments.check(Kind.changes(naming: new))
        let store = try storeOptions.open()
        let current = TerminalText.quoted(try Kind.storedName(of: old, in: store) ?? old)
        guard try Kind.rename(old, to: new, in: store) else {
            try Console.out("Nothing changed: \(Kind.noun) \(current) already has that name")
            return
        }
        let renamed = TerminalText.quoted(try Kind.storedName(of: new, in: store) ?? new)
        try Console.out("Renamed \(Kind.noun) \(current) to \(renamed)")
    }
}
