import ArgumentParser
import Foundation
import PersistKit

/// `persistkit model diff OLD.json NEW.json...`: what an inferred migration would do.
struct ModelDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Says what an inferred migration between model documents would do, stage by stage, and what it cannot do.",
        discussion: """
            Give two documents, or more for several stages (each to the next). A document named \
            N.json (as in Schema/<Model>/) is version N; otherwise they count from 1. A change the \
            inferred migration cannot make is named, and the command exits 1: such a stage needs \
            a custom MigrationStage (willMigrate/didMigrate code) in the application.

            Examples:
              persistkit model diff Schema/TaskModel/1.json Schema/TaskModel/2.json
              persistkit model diff Schema/Planner/1.json Schema/Planner/2.json Schema/Planner/3.json
            """)

    @Argument(help: ArgumentHelp("The model documents, oldest first.", valueName: "DOCUMENT")) var documents: [String] = []

    func validate() throws {
        guard documents.count >= 2 else { throw ValidationError("model diff needs two model documents or more, oldest first") }
    }

    func run() throws {
        let numbered = documents.map { Int(URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent) }
        let versions: [Int]
        if numbered.allSatisfy({ ($0 ?? 0) >= 1 }), let values = Optional(numbered.compactMap { $0 }), values == values.sorted(),
           Set(values).count == values.count {
            versions = values
        } else {
            versions = Array(1...documents.count)
        }
        let models = try zip(documents, versions).map { path, version in
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw ToolError.failure("cannot read \(Output.visible(path)): \((error as NSError).localizedFailureReason ?? "no such file")")
            }
            do {
                return try ManagedObjectModel(document: data, version: version)
            } catch let error as PersistError {
                throw ToolError.failure("\(Output.visible(path)) is not a model document: \(ToolError.line(for: error))")
            }
        }
        var refused: [Int] = []
        for index in 1..<models.count {
            let old = models[index - 1], new = models[index]
            Output.line("Stage \(index): version \(old.version) → \(new.version)")
            do {
                let changes = try MigrationDescription.changes(from: old, to: new)
                (changes.isEmpty ? ["no change to the stored data"] : changes).forEach { Output.line("  " + $0) }
            } catch let error as PersistError {
                Output.line("  cannot be inferred: " + ToolError.line(for: error))
                refused.append(index)
            }
        }
        if !refused.isEmpty {
            throw ToolError.failure("stage \(refused.map(String.init).joined(separator: ", ")) cannot be inferred: "
                                    + "it needs a custom MigrationStage (willMigrate/didMigrate code)")
        }
    }
}
