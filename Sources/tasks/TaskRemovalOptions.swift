import ArgumentParser
import Foundation
import TaskModel

/// `edit`'s options that take something away from a task: its project, tags, reminder.
struct TaskRemovalOptions: ParsableArguments {
    @Flag(name: .customLong("no-project"), help: "Take the task out of its project.")
    var noProject = false
    @Option(name: .customLong("untag"), help: ArgumentHelp("Take this tag off the task (repeatable).", valueName: "name"))
    var untags: [String] = []
    @Flag(name: .customLong("no-remind"), help: "Remove the reminder.")
    var noRemind = false

    /// Whether any of these options was given.
    var isEmpty: Bool { !noProject && untags.isEmpty && !noRemind }

    /// - Throws: a usage ``CommandError`` for an option given with its opposite in `fields`.
    func checkConflicts(with fields: TaskFieldOptions) throws {
        if fields.project != nil && noProject { throw CommandError.usage("--project and --no-project cannot be used together") }
        if fields.remind != nil && noRemind { throw CommandError.usage("--remind and --no-remind cannot be used together") }
        let untagged = Set(untags.map(TaskRemovalOptions.tagKey))
        if let both = fields.tags.first(where: { untagged.contains(TaskRemovalOptions.tagKey($0)) }) {
            throw CommandError.usage("--tag and --untag both name '\(both)'")
        }
    }

    /// Adds these removals to `changes`.
    func add(to changes: inout TaskChanges) {
        changes.removedTags = untags
        if noProject { changes.project = .some(nil) }
        if noRemind { changes.remindAt = .some(nil) }
    }

    private static func tagKey(_ name: String) -> String {
        var text = name.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("#") { text.removeFirst() }
        return text.lowercased()
    }
}
