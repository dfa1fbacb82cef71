import ArgumentParser
import Foundation
import TaskModel

/// The options `add` and `edit` share, for a task's project, tags, priority and reminder.
/// (Taking them away, `--no-project`, `--untag` and `--no-remind`, is ``TaskRemovalOptions``,
/// `edit`'s alone: a new task has nothing to take away.)
struct TaskFieldOptions: ParsableArguments {
    @Option(help: ArgumentHelp("File the task in this project (made on first use).", valueName: "name"))
    var project: String?
    @Option(name: .customLong("tag"), help: ArgumentHelp("Put this tag on the task (made on first use; repeatable).",
                                                         valueName: "name"))
    var tags: [String] = []
    @Option(help: ArgumentHelp("low, normal or high.", valueName: "priority"))
    var priority: String?
    @Option(help: ArgumentHelp("When to remind (tasks watch prints it): '2026-11-25 14:30', 'tomorrow 9am', 18:00, +2h.",
                               valueName: "date-time"))
    var remind: String?

    /// Whether any of these options was given.
    var isEmpty: Bool {
        project == nil && tags.isEmpty && priority == nil && remind == nil
    }

    /// The changes these options ask for, checked as usage: a bad priority or reminder time.
    ///
    /// - Throws: a usage ``CommandError``.
    func changes() throws -> TaskChanges {
        var changes = TaskChanges(addedTags: tags)
        if let project { changes.project = .some(project) }
        changes.priority = try priority.map(Arguments.priority)
        if let remind { changes.remindAt = .some(try Arguments.remindTime(remind)) }
        return changes
    }
}
