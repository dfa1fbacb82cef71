import TaskModel

/// What `done` and `undo` share.
enum Completion {
    /// Sets a task's completion and says what happened (nothing, when it already was so).
    static func set(_ isComplete: Bool, reference: String, storeOptions: StoreOptions) throws {
        let number = try Arguments.reference(reference)
        let store = try storeOptions.open()
        let task = try store.task(withReference: number)
        guard task.isComplete != isComplete else {
            try Console.out("\(task.reference) \(TerminalText.quoted(task.name)) is already \(isComplete ? "complete" : "incomplete")")
            return
        }
        try store.setIsComplete(task, isComplete)
        try Console.out("\(isComplete ? "Completed" : "Reopened") \(task.reference) \(TerminalText.quoted(task.name))")
    }
}
