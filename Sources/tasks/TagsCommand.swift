import ArgumentParser
import TaskModel

/// `tasks tags`: every tag with its open and done counts.
struct TagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags", abstract: "List tags, each with its open and done task counts.")

    @Flag(name: .long, help: "Print JSON: {\"tags\": [{\"name\", \"open\", \"done\"}]}.")
    var json = false
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let summaries = try storeOptions.open().tagSummaries()
        if json {
            try Console.out(TaskJSON.text(of: LabelTable.Document(key: "tags", summaries)))
            return
        }
        guard !summaries.isEmpty else {
            try Console.out("No tags. Tag a task with: tasks edit 12 --tag errands")
            return
        }
        try Console.out(lines: LabelTable.lines(summaries, prefix: "#", style: .forStandardOutput()))
    }
}
