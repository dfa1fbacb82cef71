import Foundation
import PersistKit

extension TaskStore {
    /// Completions per day over the last `days` days (today, the day of `now` or of the store's
    /// ``clock``, included, in `calendar`'s time zone), how each of those days' plans ended and
    /// completion per project over them, open tasks by project and by priority, and the
    /// overdue count.
    ///
    /// ```swift
    /// let stats = try store.stats()
    /// stats.completedPerDay.last?.count    // completed today
    /// ```
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func stats(days: Int = 14, now: Date? = nil, calendar: Calendar = .current) throws -> TaskStats {
        let now = now ?? clock()
        let today = CalendarDay(date: now, calendar: calendar)
        let first = today.adding(days: -(max(1, days) - 1))
        var perDay: [CalendarDay: Int] = [:]
        if let start = first.startOfDay(in: calendar) {
            let recent: PersistKit.FetchPredicate<TaskItem> = \TaskItem.isComplete == true && \TaskItem.completedAt >= start
            for task in try context.fetch(FetchRequest(predicate: recent)) {
                guard let completedAt = task.completedAt else { continue }
                let day = CalendarDay(date: completedAt, calendar: calendar)
                if day >= first && day <= today { perDay[day, default: 0] += 1 }
            }
        }
        let completed = (0..<max(1, days)).map { offset in
            let day = first.adding(days: offset)
            return TaskStats.DayCount(day: day, count: perDay[day] ?? 0)
        }
        let open = try count(.incomplete)
        let byPriority = try TaskPriority.allCases.reversed().map { priority in
            (priority: priority, count: try context.count(for: FetchRequest<TaskItem>(
                predicate: \TaskItem.isComplete == false && \TaskItem.priority == priority)))
        }
        let plans = try planOutcomes(from: first, to: today)
        return TaskStats(completedPerDay: completed, openByProject: try openByProject(open: open), openByPriority: byPriority,
                         plannedPerDay: plans.days, completionByProject: plans.projects,
                         overdue: try overdueCount(today: today, now: now, calendar: calendar), open: open,
                         done: try count(.completed))
    }

    /// Each day's plan from `first` to `last`, and completion per project over them: a
    /// reviewed day's figures from its review, another day's from its plan as it is.
    private func planOutcomes(from first: CalendarDay, to last: CalendarDay) throws
        -> (days: [DayOutcome], projects: [ProjectCompletion]) {
        let inRange: PersistKit.FetchPredicate<Day> = \Day.date >= first.storedInstant && \Day.date <= last.storedInstant
        var outcomes: [CalendarDay: DayOutcome] = [:]
        var counts: [String?: (planned: Int, completed: Int)] = [:]
        for record in try context.fetch(FetchRequest(predicate: inRange)) {
            let day = record.calendarDay
            if let review = DayReview(record) {
                outcomes[day] = DayOutcome(day: day, planned: review.planned, completed: review.completed, isReviewed: true)
                for project in review.projects {
                    counts[project.project, default: (0, 0)].planned += project.planned
                    counts[project.project, default: (0, 0)].completed += project.completed
                }
            } else {
                let tasks = record.tasks
                let done = tasks.filter(\.isComplete).count
                outcomes[day] = DayOutcome(day: day, planned: tasks.count, completed: done, isReviewed: false)
                for task in tasks {
                    counts[task.project?.name, default: (0, 0)].planned += 1
                    if task.isComplete { counts[task.project?.name, default: (0, 0)].completed += 1 }
                }
            }
        }
        let days = (0...max(0, last.days(since: first))).map { offset in
            let day = first.adding(days: offset)
            return outcomes[day] ?? DayOutcome(day: day, planned: 0, completed: 0, isReviewed: false)
        }
        return (days, ProjectCompletion.sorted(counts.filter { $0.value.planned > 0 }))
    }

    private func openByProject(open: Int) throws -> [TaskStats.ProjectCount] {
        var counts: [TaskStats.ProjectCount] = []
        var filed = 0
        for project in try projects() {
            let count = project.tasks.reduce(0) { $0 + ($1.isComplete ? 0 : 1) }
            filed += count
            if count > 0 { counts.append(TaskStats.ProjectCount(project: project.name, count: count)) }
        }
        if open > filed { counts.append(TaskStats.ProjectCount(project: nil, count: open - filed)) }
        return counts
    }

    /// Open tasks due before today: those the store finds due before the day after tomorrow
    /// (in UTC, a bound every overdue day or instant falls under), checked one by one.
    private func overdueCount(today: CalendarDay, now: Date, calendar: Calendar) throws -> Int {
        let bound = today.adding(days: 2).storedInstant
        let candidates: PersistKit.FetchPredicate<TaskItem> = \TaskItem.isComplete == false && \TaskItem.due < bound
        return try context.fetch(FetchRequest(predicate: candidates)).reduce(0) { total, task in
            total + (task.dueStatus(now: now, calendar: calendar) == .overdue ? 1 : 0)
        }
    }
}
