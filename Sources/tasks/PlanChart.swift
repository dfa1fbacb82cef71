import Foundation
import TaskModel

/// The line chart of `tasks stats`: each day's planned tasks done and not done, two lines over
/// the days, oldest on the left, two columns a day.
///
/// ```
/// Planned tasks per day, last 14 days: ━ done  ─ not done
///  3 ┤          ┏━━━┓
///  2 ┤━━━━━┓    ┃   ┗━━
///  1 ┤   ╭─╂────╯ ╭──╮
///  0 ┤───╯ ┗━━━━━━╯  ╰─
///     8 Nov          21 Nov
/// ```
///
/// A line stays on a day's value across the day's first column and turns up or down in its
/// second. Done is drawn heavy (`━ ┃ ┏ ┓ ┗ ┛`) over not done, light (`─ │ ╭ ╮ ╰ ╯`); in an
/// ASCII locale, or when asked, done is `= | +` and not done `- : .`. Counts above
/// ``tallest`` are scaled to its rows.
struct PlanChart {
    /// The most rows above the zero row.
    static let tallest = 8

    let style: Style
    let dates: DateText
    /// Plain ASCII glyphs.
    let ascii: Bool

    /// One line's glyphs: horizontal, vertical, and the four turns.
    private struct Glyphs {
        let across: String, upright: String, upFrom: String, upTo: String, downFrom: String, downTo: String
    }

    private var done: Glyphs {
        ascii ? Glyphs(across: "=", upright: "|", upFrom: "+", upTo: "+", downFrom: "+", downTo: "+")
            : Glyphs(across: "━", upright: "┃", upFrom: "┛", upTo: "┏", downFrom: "┓", downTo: "┗")
    }

    private var notDone: Glyphs {
        ascii ? Glyphs(across: "-", upright: ":", upFrom: ".", upTo: ".", downFrom: ".", downTo: ".")
            : Glyphs(across: "─", upright: "│", upFrom: "╯", upTo: "╭", downFrom: "╮", downTo: "╰")
    }

    /// The chart's lines: a title with the legend, one line per row (top first), the day labels.
    func lines(for days: [DayOutcome]) -> [String] {
        let title = "Planned tasks per day, last \(NumberText.count(days.count, "day"))"
        let top = days.map { max($0.completed, $0.notCompleted) }.max() ?? 0
        guard top > 0 else { return [style.bold(title), "  nothing was planned"] }
        let rows = min(top, PlanChart.tallest)
        func row(_ value: Int) -> Int { Int((Double(value) * Double(rows) / Double(top)).rounded()) }
        // The grid: rows + 1 lines (0 at the bottom), two columns a day; each cell a glyph and
        // whether it is the done line's.
        var grid = Array(repeating: Array(repeating: (glyph: " ", isDone: false), count: days.count * 2), count: rows + 1)
        func draw(_ values: [Int], _ glyphs: Glyphs, isDone: Bool) {
            for (index, value) in values.enumerated() {
                let y = row(value), column = index * 2
                grid[y][column] = (glyphs.across, isDone)
                let next = index + 1 < values.count ? row(values[index + 1]) : y
                if next == y {
                    grid[y][column + 1] = (glyphs.across, isDone)
                    continue
                }
                let rising = next > y
                grid[y][column + 1] = (rising ? glyphs.upFrom : glyphs.downFrom, isDone)
                grid[next][column + 1] = (rising ? glyphs.upTo : glyphs.downTo, isDone)
                for between in (min(y, next) + 1)..<max(y, next) { grid[between][column + 1] = (glyphs.upright, isDone) }
            }
        }
        draw(days.map(\.notCompleted), notDone, isDone: false)
        draw(days.map(\.completed), done, isDone: true)

        let labels = (0...rows).map { NumberText.grouped(Int((Double($0) * Double(top) / Double(rows)).rounded())) }
        let labelWidth = labels.map(\.count).max() ?? 1
        let axis = ascii ? " |" : " ┤"
        var lines = [style.bold(title) + ": " + style.green(done.across) + " done  " + style.yellow(notDone.across) + " not done"]
        for y in stride(from: rows, through: 0, by: -1) {
            let label = String(repeating: " ", count: labelWidth - labels[y].count) + labels[y]
            var line = " " + label + axis
            for cell in grid[y] {
                line += cell.glyph == " " ? " " : (cell.isDone ? style.green(cell.glyph) : style.yellow(cell.glyph))
            }
            while line.last == " " { line.removeLast() }
            lines.append(line)
        }
        lines.append(String(repeating: " ", count: labelWidth + 3) + dayAxis(days, width: days.count * 2))
        return lines
    }

    /// The first and the last day's labels under the chart (`8 Nov ... 21 Nov`).
    private func dayAxis(_ days: [DayOutcome], width: Int) -> String {
        let formatter = dates.formatter(template: "dMMM")
        func label(_ day: CalendarDay) -> String {
            day.startOfDay(in: dates.calendar).map { dates.terminal.formatted(formatter.string(from: $0)) } ?? day.isoText
        }
        guard let first = days.first?.day, let last = days.last?.day else { return "" }
        let left = label(first), right = label(last)
        guard days.count > 1 else { return left }
        let gap = max(1, width - DisplayWidth.of(left) - DisplayWidth.of(right))
        return left + String(repeating: " ", count: gap) + right
    }
}
