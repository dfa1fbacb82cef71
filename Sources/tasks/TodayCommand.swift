import ArgumentParser
import Foundation
import TaskModel

/// `tasks today [--day DATE]`: the day's plan grouped by priority, each group with its limit,
/// then what is due that day but not planned.
struct TodayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "Show today's plan (or --day's), by priority, each with its limit (High 1/1: open tasks of the limit), "
            + "then what is due that day but not planned.")

    @OptionGroup var day: DayOption
    @Flag(name: .long, help: "Print JSON (see the README for its shape).")
    var json = false
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let dates = DateText()
        let target = try day.day(dates)
        let store = try storeOptions.open()
        let planned = try store.plannedTasks(on: target)
        let due = try store.openTasks(dueOn: target, calendar: dates.calendar)
        let limits = try store.dayLimits()
        let record = try store.day(target)
        let unreviewed = target == dates.today ? try store.unreviewedDays(before: target) : []
        let labels = try store.labels(of: planned + due)
        if json {
            try Console.out(TaskJSONText.string(of: TodayJSON(day: target, record: record, planned: planned, due: due, limits: limits,
                                                               unreviewed: unreviewed, dates: dates, labels: labels)))
            return
        }
        var renderer = ListRenderer(style: .forStandardOutput(), dates: dates, labels: labels)
        renderer.showsPriority = false
        var groups = TaskPriority.allCases.reversed().map { priority in
            let tasks = planned.filter { $0.priority == priority }
            let open = tasks.filter { !$0.isComplete }.count
            return ListRenderer.Group(title: "\(priority.name.prefix(1).uppercased() + priority.name.dropFirst()) "
                                      + "\(NumberText.grouped(open))/\(NumberText.grouped(limits[priority]))", tasks: tasks)
        }
        if !due.isEmpty {
            groups.append(ListRenderer.Group(title: "Due \(dates.dayName(target)), not planned (\(NumberText.grouped(due.count)))",
                                             tasks: due))
        }
        var heading = "Plan for \(dates.dayHeading(target))"
        if let reviewedAt = record?.reviewedAt {
            let at = CalendarDay(date: reviewedAt, calendar: dates.calendar) == target ? dates.time(reviewedAt) : dates.dayAndTime(reviewedAt)
            heading += " (reviewed at \(at))"
        }
        var lines = [renderer.style.bold(heading), ""] + renderer.lines(for: groups)
        if planned.isEmpty && record?.isReviewed != true {
            lines += ["", "Nothing planned. Plan a task with: tasks plan 12" + (target == dates.today ? "" : " --day \(target.isoText)")
                          + " (tasks backlog lists what waits)"]
        }
        if let oldest = unreviewed.first {
            let days = unreviewed.map { dates.dayName($0) }.joined(separator: ", ")
            lines += ["", "Not reviewed yet: \(days) (tasks review --day \(oldest.isoText))"]
        }
        try Console.out(lines: lines)
    }
}
