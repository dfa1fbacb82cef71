import ArgumentParser
import Foundation
import PersistKit
import TerminalProgress

/// `persistkit check STORE`: finds what is wrong with a store, one line per problem.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Checks a store: SQLite's integrity check, references to missing rows, the schema against the recorded model, "
            + "and values of the wrong type.",
        discussion: """
            Prints one line per problem on standard output and exits 1 when it finds any; prints \
            one line saying what it checked and exits 0 when it finds none. SQLite's integrity \
            check runs one table at a time (with its indexes), each table's rows counted for the \
            progress bar.

            Examples:
              persistkit check tasks.sqlite
              persistkit check tasks.sqlite > problems.txt || echo "damaged"
            """)

    @OptionGroup var location: StoreArgument

    func run() throws {
        let inspector = try location.inspector()
        let progress = ProgressBar()
        var problems = try inspector.integrityProblems { table, done, total in
            progress.show("checking integrity of \(table)", done: done, total: total)
        }
        problems += try inspector.orphanedReferences()
        let model = try inspector.recordedModel()
        if let model {
            problems += try inspector.schemaProblems(against: model)
            problems += try inspector.valueProblems(against: model) { entity, done, total in
                progress.show("checking the values of \(entity)", done: done, total: total)
            }
        }
        progress.clear()
        for problem in problems { Output.line(Output.visible(problem)) }
        guard problems.isEmpty else {
            throw ToolError.failure("\(location.store): \(Count.grouped(problems.count)) \(problems.count == 1 ? "problem" : "problems")")
        }
        let rows = try inspector.tables().reduce(0) { $0 + $1.rows }
        Output.line("\(Output.visible(location.store)): no problems (\(Count.rows(rows)) checked: integrity, references"
                    + (model == nil ? "; the store records no model document, so its schema and values were not checked)"
                                    : ", schema and values)"))
    }
}
