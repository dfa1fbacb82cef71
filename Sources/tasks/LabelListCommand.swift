import ArgumentParser
import TaskModel

/// `tasks projects` and `tasks tags`: each with its open and done counts.
struct LabelListCommand<Kind: LabelKind>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: Kind.noun + "s", abstract: "List \(Kind.noun)s, each with its open and done task counts.")
    }

    @Flag(name: .long, help: ArgumentHelp("Print JSON: {\"\(Kind.noun)s\": [{\"name\", \"open\", \"done\"}]}."))
    var json = false
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let summaries = try Kind.summaries(in: try storeOptions.open())
        if json {
            try Console.out(TaskJSONText.string(of: LabelTable.Document(key: Kind.noun + "s", summaries)))
            return
        }
        guard !summaries.isEmpty else {
            try Console.out(Kind.noneMessage)
            return
        }
        try Console.out(lines: LabelTable.lines(summaries, prefix: Kind.prefix, style: .forStandardOutput()))
    }
}
