import Foundation
import TaskModel

/// The text of a task list: each section's header and count, then one row per task.
///
/// ```
/// Incomplete (2)
///   #2  [ ] Buy milk   Nov 22, 2026 (tomorrow)  Oat milk if they have it
///   #3  [ ] Call mom   Nov 24, 2026
///
/// Complete (1)
///   #4  [x] Water the plants
/// ```
struct ListRenderer {
    let style: Style
    let dates: DateText
    /// Names longer than this are not padded to, so one long name does not push every row.
    private let widestPaddedName = 40

    /// The lines for these sections, in order; a hint when the store has no task at all.
    func lines(for sections: [(section: TaskSection, tasks: [TaskItem])]) -> [String] {
        let all = sections.flatMap(\.tasks)
        let references = all.map(\.reference)
        let referenceWidth = references.map(\.count).max() ?? 2
        let nameWidth = min(widestPaddedName, all.map(\.name.count).max() ?? 0)
        let dueTexts = all.map { dates.due(of: $0, style: Style(isEnabled: false)) }
        let dueWidth = dueTexts.map(\.count).max() ?? 0
        var lines: [String] = []
        for (index, entry) in sections.enumerated() {
            if index > 0 { lines.append("") }
            lines.append(style.bold("\(entry.section.title) (\(entry.tasks.count))"))
            for task in entry.tasks {
                lines.append(row(task, referenceWidth: referenceWidth, nameWidth: nameWidth, dueWidth: dueWidth))
            }
        }
        return lines
    }

    /// One task's row: reference, box, name, due date, first line of notes.
    func row(_ task: TaskItem, referenceWidth: Int, nameWidth: Int, dueWidth: Int) -> String {
        let reference = String(repeating: " ", count: max(0, referenceWidth - task.reference.count)) + task.reference
        let box = task.isComplete ? style.green("[x]") : "[ ]"
        let plainDue = dates.due(of: task, style: Style(isEnabled: false))
        let name = task.isComplete ? style.dim(task.name) : task.name
        var line = "  " + style.dim(reference) + "  " + box + " " + name + padding(task.name.count, nameWidth)
        if dueWidth > 0 {
            line += "  " + dates.due(of: task, style: style) + padding(plainDue.count, dueWidth)
        }
        if let notes = task.notesFirstLine {
            line += "  " + style.dim(notes)
        }
        // Padding is only for the columns after it: no trailing blanks.
        while line.last == " " { line.removeLast() }
        return line
    }

    private func padding(_ used: Int, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - used))
    }
}
