import ArgumentParser
import TaskModel

/// `tasks projects`: every project with its open and done counts.
struct ProjectsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "projects", abstract: "List projects, each with its open and done task counts.")

    @Flag(name: .long, help: "Print JSON: {\"projects\": [{\"name\", \"open\", \"done\"}]}.")
    var json = false
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let summaries = try storeOptions.open().projectSummaries()
        if json {
            try Console.out(TaskJSON.text(of: LabelTable.Document(key: "projects", summaries)))
            return
        }
        guard !summaries.isEmpty else {
            try Console.out("No projects. File a task in one with: tasks add \"Fix the gate\" --project Home")
            return
        }
        try Console.out(lines: LabelTable.lines(summaries, prefix: "+", style: .forStandardOutput()))
    }
}
