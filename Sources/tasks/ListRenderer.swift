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
    /// A titled group of rows: a section of the list, a priority of the day's plan, the backlog.
    struct Group {
        let title: String
        let tasks: [TaskItem]
    }

    let style: Style
    let dates: DateText
    /// The tasks' projects and tags; nil shows none.
    var labels: TaskLabels?
    /// Whether a priority column may appear (not where the groups are the priorities).
    var showsPriority = true
    /// A last column before the notes (the backlog's `since Sat, 21 Nov`); nil for none.
    var note: ((TaskItem) -> String?)?
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
        var note = 0
    }

    /// A task's texts, computed once per task (formatting a date is the costly part of a row).
    private struct Cells {
        let task: TaskItem
        let name: String
        let plainDue: String
        let due: String
        let project: String
        let tags: String
        let note: String
    }

    /// The lines for these sections, in order, each titled with its count: `Incomplete (3)`.
    func lines(for sections: [(section: TaskSection, tasks: [TaskItem])]) -> [String] {
        lines(for: sections.map { Group(title: "\($0.section.title) (\(NumberText.grouped($0.tasks.count)))", tasks: $0.tasks) })
    }

    /// The lines for these groups, in order, a blank line between two, every row's columns
    /// lined up across all of them.
    func lines(for groups: [Group]) -> [String] {
        let cells = groups.map { group in group.tasks.map { makeCells($0) } }
        let widths = measure(cells.flatMap { $0 })
        var lines: [String] = []
        for (index, group) in groups.enumerated() {
            if index > 0 { lines.append("") }
            lines.append(style.bold(group.title))
            for task in cells[index] {
                lines.append(row(task, widths))
            }
        }
        return lines
    }

    private func makeCells(_ task: TaskItem) -> Cells {
        let plainDue = dates.due(of: task, style: Style(isEnabled: false))
        return Cells(task: task, name: TerminalText.visible(task.name), plainDue: plainDue,
                     due: style.isEnabled ? dates.due(of: task, style: style) : plainDue,
                     project: labels?.project(of: task).map { "+" + TerminalText.visible($0) } ?? "",
                     tags: (labels?.tags(of: task) ?? []).map { "#" + TerminalText.visible($0) }.joined(separator: " "),
                     note: note?(task) ?? "")
    }

    private func measure(_ all: [Cells]) -> Widths {
        var widths = Widths()
        widths.reference = all.map(\.task.reference.count).max() ?? 2
        // Columns are measured in terminal cells: a CJK character or an emoji takes two.
        widths.name = min(widestPaddedName, all.map { DisplayWidth.of($0.name) }.max() ?? 0)
        widths.due = all.map { DisplayWidth.of($0.plainDue) }.max() ?? 0
        if showsPriority && all.contains(where: { $0.task.priority != .normal }) {
            widths.priority = all.map { $0.task.priority.name.count }.max() ?? 0
        }
        widths.project = all.map { DisplayWidth.of($0.project) }.max() ?? 0
        widths.tags = all.map { DisplayWidth.of($0.tags) }.max() ?? 0
        widths.note = all.map { DisplayWidth.of($0.note) }.max() ?? 0
        return widths
    }

    /// One task's row: reference, box, name, due date, priority, project, tags, first line of
    /// notes; text from the store with its control characters made visible.
    private func row(_ cells: Cells, _ widths: Widths) -> String {
        let task = cells.task
        let reference = padding(task.reference.count, widths.reference) + task.reference
        let box = task.isComplete ? style.green("[x]") : "[ ]"
        let name = task.isComplete ? style.dim(cells.name) : cells.name
        var line = "  " + style.dim(reference) + "  " + box + " " + name + padding(DisplayWidth.of(cells.name), widths.name)
        if widths.due > 0 {
            line += "  " + cells.due + padding(DisplayWidth.of(cells.plainDue), widths.due)
        }
        if widths.priority > 0 {
            line += "  " + priorityText(task.priority) + padding(task.priority.name.count, widths.priority)
        }
        if widths.project > 0 {
            line += "  " + style.blue(cells.project) + padding(DisplayWidth.of(cells.project), widths.project)
        }
        if widths.tags > 0 {
            line += "  " + style.cyan(cells.tags) + padding(DisplayWidth.of(cells.tags), widths.tags)
        }
        if widths.note > 0 {
            line += "  " + style.dim(cells.note) + padding(DisplayWidth.of(cells.note), widths.note)
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

    private func padding(_ used: Int, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - used))
    }
}
