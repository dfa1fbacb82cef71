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
        let referenceWidth = all.map(\.reference.count).max() ?? 2
        // Columns are measured in terminal cells: a CJK character or an emoji takes two.
        let nameWidth = min(widestPaddedName, all.map { DisplayWidth.of(TerminalText.visible($0.name)) }.max() ?? 0)
        let dueWidth = all.map { DisplayWidth.of(dates.due(of: $0, style: Style(isEnabled: false))) }.max() ?? 0
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

    /// One task's row: reference, box, name, due date, first line of notes; the name and notes
    /// with their control characters made visible.
    func row(_ task: TaskItem, referenceWidth: Int, nameWidth: Int, dueWidth: Int) -> String {
        let reference = padding(task.reference.count, referenceWidth) + task.reference
        let box = task.isComplete ? style.green("[x]") : "[ ]"
        let plainDue = dates.due(of: task, style: Style(isEnabled: false))
        let plainName = TerminalText.visible(task.name)
        let name = task.isComplete ? style.dim(plainName) : plainName
        var line = "  " + style.dim(reference) + "  " + box + " " + name + padding(DisplayWidth.of(plainName), nameWidth)
        if dueWidth > 0 {
            line += "  " + dates.due(of: task, style: style) + padding(DisplayWidth.of(plainDue), dueWidth)
        }
        if let notes = task.notesFirstLine {
            line += "  " + style.dim(TerminalText.visible(notes))
        }
        // Padding is only for the columns after it: no trailing blanks.
        while line.last == " " { line.removeLast() }
        return line
    }

    private func padding(_ used: Int, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - used))
    }
}
