import Foundation
import TaskModel

/// The text of a task list: each section's header and count, then one row per task.
///
/// ```
/// Incomplete (2)
///   #2  [ ] Buy milk   Nov 22, 2026 (tomorrow)  high    +Home  #errands  Oat milk if they have it
///   #3  [ ] Call mom   Nov 24, 2026             normal
///
/// Complete (1)
///   #4  [x] Water the plants                    normal
/// ```
///
/// The priority, project and tag columns appear when some listed task has a priority other
/// than normal, a project, or a tag: a list that uses none of them looks as it always did.
struct ListRenderer {
    let style: Style
    let dates: DateText
    /// The tasks' projects and tags; nil shows none.
    var labels: TaskLabels?
    /// Names longer than this are not padded to, so one long name does not push every row.
    private let widestPaddedName = 40

    init(style: Style, dates: DateText, labels: TaskLabels? = nil) {
        self.style = style
        self.dates = dates
        self.labels = labels
    }

    /// The widths of the columns, in terminal cells (0: the column is left out).
    private struct Widths {
        var reference = 2
        var name = 0
        var due = 0
        var priority = 0
        var project = 0
        var tags = 0
    }

    /// The lines for these sections, in order.
    func lines(for sections: [(section: TaskSection, tasks: [TaskItem])]) -> [String] {
        let widths = measure(sections.flatMap(\.tasks))
        var lines: [String] = []
        for (index, entry) in sections.enumerated() {
            if index > 0 { lines.append("") }
            lines.append(style.bold("\(entry.section.title) (\(entry.tasks.count))"))
            for task in entry.tasks {
                lines.append(row(task, widths))
            }
        }
        return lines
    }

    private func measure(_ all: [TaskItem]) -> Widths {
        var widths = Widths()
        widths.reference = all.map(\.reference.count).max() ?? 2
        // Columns are measured in terminal cells: a CJK character or an emoji takes two.
        widths.name = min(widestPaddedName, all.map { DisplayWidth.of(TerminalText.visible($0.name)) }.max() ?? 0)
        widths.due = all.map { DisplayWidth.of(dates.due(of: $0, style: Style(isEnabled: false))) }.max() ?? 0
        if all.contains(where: { $0.priority != .normal }) {
            widths.priority = all.map { $0.priority.name.count }.max() ?? 0
        }
        widths.project = all.map { DisplayWidth.of(projectText($0)) }.max() ?? 0
        widths.tags = all.map { DisplayWidth.of(tagsText($0)) }.max() ?? 0
        return widths
    }

    /// One task's row: reference, box, name, due date, priority, project, tags, first line of
    /// notes; text from the store with its control characters made visible.
    private func row(_ task: TaskItem, _ widths: Widths) -> String {
        let reference = padding(task.reference.count, widths.reference) + task.reference
        let box = task.isComplete ? style.green("[x]") : "[ ]"
        let plainName = TerminalText.visible(task.name)
        let name = task.isComplete ? style.dim(plainName) : plainName
        var line = "  " + style.dim(reference) + "  " + box + " " + name + padding(DisplayWidth.of(plainName), widths.name)
        if widths.due > 0 {
            let plainDue = dates.due(of: task, style: Style(isEnabled: false))
            line += "  " + dates.due(of: task, style: style) + padding(DisplayWidth.of(plainDue), widths.due)
        }
        if widths.priority > 0 {
            line += "  " + priorityText(task.priority) + padding(task.priority.name.count, widths.priority)
        }
        if widths.project > 0 {
            let project = projectText(task)
            line += "  " + style.blue(project) + padding(DisplayWidth.of(project), widths.project)
        }
        if widths.tags > 0 {
            let tags = tagsText(task)
            line += "  " + style.cyan(tags) + padding(DisplayWidth.of(tags), widths.tags)
        }
        if let notes = task.notesFirstLine {
            line += "  " + style.dim(TerminalText.visible(notes))
        }
        // Padding is only for the columns after it: no trailing blanks.
        while line.last == " " { line.removeLast() }
        return line
    }

    private func priorityText(_ priority: TaskPriority) -> String {
        switch priority {
        case .high: return style.red(priority.name)
        case .normal: return priority.name
        case .low: return style.dim(priority.name)
        }
    }

    /// `+Home`, or empty.
    private func projectText(_ task: TaskItem) -> String {
        labels?.project(of: task).map { "+" + TerminalText.visible($0) } ?? ""
    }

    /// `#errands #phone`, or empty.
    private func tagsText(_ task: TaskItem) -> String {
        (labels?.tags(of: task) ?? []).map { "#" + TerminalText.visible($0) }.joined(separator: " ")
    }

    private func padding(_ used: Int, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - used))
    }
}
