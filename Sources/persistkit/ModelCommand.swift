import ArgumentParser

/// `persistkit model ...`: model documents.
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Works with model documents (the JSON a model's document writes, as committed in Schema/).",
        subcommands: [ModelDiffCommand.self]
    )
}
