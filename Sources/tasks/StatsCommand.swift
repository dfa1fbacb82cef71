import ArgumentParser
import Foundation
import TaskModel

/// `tasks stats [--days N]`: completions per day as a bar chart, how each day's plan ended as
/// a line chart, completion per project, open tasks by project and priority, overdue tasks.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Over the last 14 days (or --days): tasks completed per day (a bar chart), the planned tasks done and not "
            + "done per day (a line chart) and completion per project; then open tasks by project and by priority, and how "
            + "many are overdue.")

    @Option(help: ArgumentHelp("How many days, today included: 1 to 366 (default 14).", valueName: "n"))
    var days: String?
    @Flag(name: .long, help: "Draw the charts in plain ASCII (as in the C locale).")
    var ascii = false
    @Flag(name: .long, help: "Print JSON (see the README for its shape) instead of text.")
    var json = false
    @OptionGroup var storeOptions: StoreOptions

    /// The days a chart covers unless --days says.
    static let defaultDays = 14

    func run() throws {
        let count = try days.map(StatsCommand.dayCount) ?? StatsCommand.defaultDays
        var dates = DateText()
        if ascii { dates = DateText(now: dates.now, calendar: dates.calendar, terminal: dates.terminal.asciiOnly) }
        let stats = try storeOptions.open().stats(days: count, now: dates.now, calendar: dates.calendar)
        if json {
            try Console.out(TaskJSONText.string(of: StatsJSON(stats)))
            return
        }
        try Console.out(lines: StatsRenderer(style: .forStandardOutput(), dates: dates).lines(for: stats))
    }

    /// A day count as typed: 1 to 366.
    ///
    /// - Throws: a usage ``CommandError``.
    static func dayCount(_ text: String) throws -> Int {
        guard let count = Int(text.trimmingCharacters(in: .whitespaces)), (1...366).contains(count) else {
            throw CommandError.usage("'\(text)' is not a number of days (try a number from 1 to 366)")
        }
        return count
    }
}
