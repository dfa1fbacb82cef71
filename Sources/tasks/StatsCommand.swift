import ArgumentParser
import Foundation
import TaskModel

/// `tasks stats`: completions per day as a bar chart, open tasks by project and priority,
/// overdue tasks.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Tasks completed per day over the last 14 days (a bar chart), open tasks by project and by priority, "
            + "and how many are overdue.")

    @Flag(name: .long, help: "Print JSON (see the README for its shape) instead of text.")
    var json = false
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let dates = DateText()
        let stats = try storeOptions.open().stats(days: StatsRenderer.days, now: dates.now, calendar: dates.calendar)
        if json {
            try Console.out(TaskJSONText.string(of: StatsJSON(stats)))
            return
        }
        try Console.out(lines: StatsRenderer(style: .forStandardOutput(), dates: dates).lines(for: stats))
    }
}

/// The JSON of `tasks stats --json`: every key always present.
///
/// ```json
/// {"completedPerDay": [{"day": "2026-11-10", "count": 2}, ...],
///  "openByProject": [{"project": "Home", "count": 3}, {"project": null, "count": 1}],
///  "openByPriority": {"high": 1, "normal": 3, "low": 0}, "overdue": 1, "open": 4, "done": 9}
/// ```
struct StatsJSON: Encodable {
    struct Day: Encodable {
        let day: String
        let count: Int
    }

    struct ProjectCount: Encodable {
        let project: String?
        let count: Int

        private enum CodingKeys: String, CodingKey { case project, count }

        // By hand, so that a null project is written, not left out.
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(project, forKey: .project)
            try container.encode(count, forKey: .count)
        }
    }

    let completedPerDay: [Day]
    let openByProject: [ProjectCount]
    let openByPriority: [String: Int]
    let overdue: Int
    let open: Int
    let done: Int

    init(_ stats: TaskStats) {
        completedPerDay = stats.completedPerDay.map { Day(day: $0.day.isoText, count: $0.count) }
        openByProject = stats.openByProject.map { ProjectCount(project: $0.project, count: $0.count) }
        openByPriority = Dictionary(uniqueKeysWithValues: stats.openByPriority.map { ($0.priority.name, $0.count) })
        overdue = stats.overdue
        open = stats.open
        done = stats.done
    }
}
