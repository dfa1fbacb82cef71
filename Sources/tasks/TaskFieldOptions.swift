import ArgumentParser
import Foundation
import TaskModel

/// The options `add` and `edit` share for a task's project, tags, priority and reminder.
struct TaskFieldOptions: ParsableArguments {
    @Option(help: ArgumentHelp("File the task in this project (made on first use).", valueName: "name"))
    var project: String?
    @Flag(name: .customLong("no-project"), help: "Take the task out of its project.")
    var noProject = false
    @Option(name: .customLong("tag"), help: ArgumentHelp("Put this tag on the task (made on first use; repeatable).",
                                                         valueName: "name"))
    var tags: [String] = []
    @Option(name: .customLong("untag"), help: ArgumentHelp("Take this tag off the task (repeatable).", valueName: "name"))
    var untags: [String] = []
    @Option(help: ArgumentHelp("low, normal or high.", valueName: "priority"))
    var priority: String?
    @Option(help: ArgumentHelp("When to remind (tasks watch prints it): '2026-11-25 14:30', 'tomorrow 9am', 18:00, +2h.",
                               valueName: "date-time"))
    var remind: String?
    @Flag(name: .customLong("no-remind"), help: "Remove the reminder.")
    var noRemind = false

    /// Whether any of these options was given.
    var isEmpty: Bool {
        project == nil && !noProject && tags.isEmpty && untags.isEmpty && priority == nil && remind == nil && !noRemind
    }

    /// The changes these options ask for, checked as usage: conflicting options, a bad priority
    /// or reminder time.
    ///
    /// - Throws: a usage ``CommandError``.
    func changes() throws -> TaskChanges {
        if project != nil && noProject { throw CommandError.usage("--project and --no-project cannot be used together") }
        if remind != nil && noRemind { throw CommandError.usage("--remind and --no-remind cannot be used together") }
        let untagged = Set(untags.map(TaskFieldOptions.tagKey))
        if let both = tags.first(where: { untagged.contains(TaskFieldOptions.tagKey($0)) }) {
            throw CommandError.usage("--tag and --untag both name '\(both)'")
        }
        var changes = TaskChanges(addedTags: tags, removedTags: untags)
        if let project { changes.project = .some(project) } else if noProject { changes.project = .some(nil) }
        changes.priority = try priority.map(Arguments.priority)
        if let remind { changes.remindAt = .some(try Arguments.remindTime(remind)) } else if noRemind { changes.remindAt = .some(nil) }
        return changes
    }

    private static func tagKey(_ name: String) -> String {
        var text = name.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("#") { text.removeFirst() }
        return text.lowercased()
    }
}
