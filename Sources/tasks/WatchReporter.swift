import Foundation
import PersistKit
import TaskModel

/// Turns a results controller's change sets into one line per change:
///
/// ```
/// + #14 "Call mom" into Incomplete at 2
/// ~ #3 moved to Complete 1
/// ~ #5 "Buy oat milk" changed
/// - #9
/// ```
/// Positions count from 1 within their section, as the list shows them.
final class WatchReporter {
    /// What a row showed, kept to name the rows a change deletes (they are gone from the
    /// controller by the time it reports).
    private struct Row {
        let reference: String
        let name: String
    }

    private var rows: [[Row]] = []
    /// The tasks reported since ``endRound()``: a rename's line is not added for a task the
    /// controller reported in the same merge.
    private var reported = Set<String>()

    init(_ controller: FetchedResultsController<TaskItem>) {
        remember(controller)
    }

    /// The lines for one change set, read against the controller's new state; `edit` words a
    /// task changed in place when it knows better than `changed` (`planned for today`).
    func lines(for change: ChangeSet, in controller: FetchedResultsController<TaskItem>,
               edit: (TaskItem) -> String? = { _ in nil }) -> [String] {
        let deleted = change.deletedRows.compactMap { path -> Row? in
            guard path.section < rows.count, path.item >= 0, path.item < rows[path.section].count else { return nil }
            return rows[path.section][path.item]
        }
        var lines: [String] = []
        var arrived = Set<String>()
        // A task leaving a section that went away, or entering a new one, is reported by the
        // controller as a delete plus an insert: it is one move to the person watching.
        var arrivals: [(path: IndexPath, task: TaskItem)] = change.insertedRows.compactMap { path in
            controller.object(at: path).map { (path, $0) }
        }
        arrivals.append(contentsOf: change.movedRows.compactMap { move in
            controller.object(at: move.to).map { (move.to, $0) }
        })
        arrivals.sort { ($0.path.section, $0.path.item) < ($1.path.section, $1.path.item) }
        let deletedReferences = Set(deleted.map(\.reference))
        for row in deleted where !arrivals.contains(where: { $0.task.reference == row.reference }) {
            lines.append("- \(row.reference)")
        }
        let movedReferences = Set(change.movedRows.compactMap { controller.object(at: $0.to)?.reference })
        for (path, task) in arrivals {
            arrived.insert(task.reference)
            let place = "\(title(of: path.section, in: controller))"
            if movedReferences.contains(task.reference) || deletedReferences.contains(task.reference) {
                lines.append("~ \(task.reference) moved to \(place) \(NumberText.grouped(path.item + 1))")
            } else {
                lines.append("+ \(task.reference) \(quoted(task.name)) into \(place) at \(NumberText.grouped(path.item + 1))")
            }
        }
        for update in change.updatedRows {
            guard let task = controller.object(at: update.to), !arrived.contains(task.reference) else { continue }
            lines.append("~ \(task.reference) \(quoted(task.name)) " + (edit(task) ?? "changed"))
        }
        reported.formUnion(arrived)
        reported.formUnion(change.updatedRows.compactMap { controller.object(at: $0.to)?.reference })
        remember(controller)
        return lines
    }

    /// The lines for the listed tasks of renamed projects and tags, in list order, one per
    /// task: `~ #3 "Fix the gate" changed`. No task row changes in a rename, so the controller
    /// reports nothing, but the rows show the new name.
    func lines(renaming projects: [Project], _ tags: [Tag], in controller: FetchedResultsController<TaskItem>) -> [String] {
        var touched = Set<ObjectIdentifier>()
        for project in projects { touched.formUnion(project.tasks.map(ObjectIdentifier.init)) }
        for tag in tags { touched.formUnion(tag.tasks.map(ObjectIdentifier.init)) }
        guard !touched.isEmpty else { return [] }
        var lines: [String] = []
        for section in controller.sections {
            for task in section.objects where touched.contains(ObjectIdentifier(task)) && !reported.contains(task.reference) {
                reported.insert(task.reference)
                lines.append("~ \(task.reference) \(quoted(task.name)) changed")
            }
        }
        return lines
    }

    /// The lines for listed tasks, by reference, that changed without the controller
    /// reporting them (files attached or detached), in list order, each once:
    /// `~ #3 "Fix the gate" attached receipt.jpg`.
    func lines(touching references: Set<String>, in controller: FetchedResultsController<TaskItem>,
               edit: (TaskItem) -> String?) -> [String] {
        guard !references.isEmpty else { return [] }
        var lines: [String] = []
        for section in controller.sections {
            for task in section.objects where references.contains(task.reference) && !reported.contains(task.reference) {
                reported.insert(task.reference)
                lines.append("~ \(task.reference) \(quoted(task.name)) " + (edit(task) ?? "changed"))
            }
        }
        return lines
    }

    /// Ends one merge: the next one's lines are decided afresh.
    func endRound() {
        reported.removeAll()
    }

    private func remember(_ controller: FetchedResultsController<TaskItem>) {
        rows = controller.sections.map { section in
            section.objects.map { Row(reference: $0.reference, name: $0.name) }
        }
    }

    private func title(of section: Int, in controller: FetchedResultsController<TaskItem>) -> String {
        guard section < controller.sections.count else { return "section \(section + 1)" }
        let resultsSection = controller.sections[section]
        return TaskSection(resultsSection)?.title ?? resultsSection.name
    }

    private func quoted(_ name: String) -> String { TerminalText.quoted(name) }
}
