import Foundation
import TaskModel

/// The text of `tasks stats`:
///
/// ```
/// Completed in the last 14 days (9)
///   Tue, Nov 10  ██████████ 2
///   Wed, Nov 11             0
///   ...
///   Mon, Nov 23  ████████████████████ 4
///
/// Planned tasks per day, last 14 days: ━ done  ─ not done
///  3 ┤          ┏━━━┓
///  ...                                  (see PlanChart)
///
/// Completion by project, last 14 days
///   +Home         7 of 9   78%
///   (no project)  2 of 2  100%
///
/// Open by project (6)
///   +Home         3
///   (no project)  3
///
/// Open by priority
///   high    1
///   normal  4
///   low     1
///
/// Overdue: 2
/// ```
///
/// Bars are scaled so the longest is at most ``widestBar`` cells; a day with any completion
/// gets at least one cell.
struct StatsRenderer {
    /// The most cells a bar takes.
    static let widestBar = 40

    let style: Style
    let dates: DateText

    func lines(for stats: TaskStats) -> [String] {
        var lines = chart(stats.completedPerDay)
        lines += [""] + PlanChart(style: style, dates: dates, ascii: dates.terminal.isASCII).lines(for: stats.plannedPerDay)
        lines += ["", style.bold("Completion by project, last \(NumberText.count(stats.plannedPerDay.count, "day"))")]
        lines += stats.completionByProject.isEmpty ? ["  none planned"] : completionTable(stats.completionByProject)
        lines += ["", style.bold("Open by project (\(NumberText.grouped(stats.open)))")]
        let projects = stats.openByProject.map { ($0.project.map { "+" + TerminalText.visible($0) } ?? "(no project)", $0.count) }
        lines += projects.isEmpty ? ["  none"] : table(projects)
        lines += ["", style.bold("Open by priority")]
        lines += table(stats.openByPriority.map { ($0.priority.name, $0.count) })
        let overdue = "Overdue: " + NumberText.grouped(stats.overdue)
        lines += ["", stats.overdue > 0 ? style.red(overdue) : overdue]
        return lines
    }

    /// The bar chart: one line per day, oldest first, labelled `Tue, Nov 10` in the user's locale.
    private func chart(_ days: [TaskStats.DayCount]) -> [String] {
        let total = days.reduce(0) { $0 + $1.count }
        let most = days.map(\.count).max() ?? 0
        let formatter = dates.formatter(template: "EEEMMMd")
        let labels = days.map { day in
            day.day.startOfDay(in: dates.calendar).map { dates.terminal.formatted(formatter.string(from: $0)) } ?? day.day.isoText
        }
        let labelWidth = labels.map(DisplayWidth.of).max() ?? 0
        var lines = [style.bold("Completed in the last \(days.count) days (\(NumberText.grouped(total)))")]
        let widths = days.map { barWidth($0.count, most: most) }
        let widestBar = widths.max() ?? 0
        for (index, day) in days.enumerated() {
            let label = labels[index] + String(repeating: " ", count: labelWidth - DisplayWidth.of(labels[index]))
            let bar = String(repeating: dates.terminal.glyph("█", ascii: "#"), count: widths[index])
            let gap = String(repeating: " ", count: widestBar - widths[index])
            lines.append("  " + label + "  " + style.green(bar) + gap + (widestBar > 0 ? " " : "") + NumberText.grouped(day.count))
        }
        return lines
    }

    private func barWidth(_ count: Int, most: Int) -> Int {
        guard count > 0, most > 0 else { return 0 }
        guard most > StatsRenderer.widestBar else { return count }
        return max(1, Int((Double(count) * Double(StatsRenderer.widestBar) / Double(most)).rounded()))
    }

    /// `+Home  7 of 9   78%`: each project's done and planned tasks, and the share done.
    private func completionTable(_ projects: [ProjectCompletion]) -> [String] {
        let names = projects.map { $0.project.map { "+" + TerminalText.visible($0) } ?? "(no project)" }
        let done = projects.map { NumberText.grouped($0.completed) }
        let planned = projects.map { NumberText.grouped($0.planned) }
        let percents = projects.map { "\(Int(($0.rate * 100).rounded()))%" }
        let nameWidth = names.map(DisplayWidth.of).max() ?? 0
        let doneWidth = done.map(\.count).max() ?? 0
        let plannedWidth = planned.map(\.count).max() ?? 0
        func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        return projects.indices.map { index in
            "  " + names[index] + String(repeating: " ", count: nameWidth - DisplayWidth.of(names[index])) + "  "
                + pad(done[index], doneWidth) + " of " + pad(planned[index], plannedWidth) + pad(percents[index], 6)
        }
    }

    /// Names and counts in two aligned columns, counts right-aligned.
    private func table(_ rows: [(String, Int)]) -> [String] {
        let nameWidth = rows.map { DisplayWidth.of($0.0) }.max() ?? 0
        let countWidth = rows.map { NumberText.grouped($0.1).count }.max() ?? 0
        return rows.map { name, count in
            let number = NumberText.grouped(count)
            return "  " + name + String(repeating: " ", count: nameWidth - DisplayWidth.of(name)) + "  "
                + String(repeating: " ", count: countWidth - number.count) + number
        }
    }
}
