import ArgumentParser
import Foundation
import PersistKit

/// `persistkit info STORE`: what the store is and holds.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Shows a store's format and model version, entities with row counts, relationships, indexes, history and file sizes.",
        discussion: """
            Examples:
              persistkit info tasks.sqlite
              persistkit info tasks.sqlite --json
            """)

    @OptionGroup var location: StoreArgument
    @Flag(help: "Print JSON instead of text.") var json = false

    func run() throws {
        let inspector = try location.inspector()
        let report = try InfoReport(inspector)
        if json {
            Output.line(try report.json())
        } else {
            report.lines().forEach(Output.line)
        }
    }
}
