import ArgumentParser
import TaskModel

/// The tasks a command acts on, one or more (`rm`, `plan`, `unplan`): `12` or `#12`.
struct TaskReferences: ParsableArguments {
    @Argument(help: ArgumentHelp("The tasks' numbers: 12 or '#12'.", valueName: "ref"))
    var references: [String]

    /// The numbers, each once, in the order given: checked before any store is opened.
    ///
    /// - Throws: a usage ``CommandError`` for one that is not a reference.
    func numbers() throws -> [Int64] {
        try Arguments.references(references)
    }

    /// The tasks with these numbers, every one found before anything is done: one unknown is
    /// an error, and nothing changes.
    ///
    /// - Throws: ``PersistKit/PersistError`` `.objectNotFound` (`no task #42`).
    static func tasks(_ numbers: [Int64], in store: TaskStore) throws -> [TaskItem] {
        try numbers.map { try store.task(withReference: $0) }
    }
}
