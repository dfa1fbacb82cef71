import Foundation
import PersistKit

extension TaskStore {
    /// Completions per day over the last `days` days (today, the day of `now` or of the store's
    /// ``clock``, included, in `calendar`'s time zone), open tasks by project and by priority,
    /// and the overdue count.
    ///
    /// ```swift
    /// let stats = try store.stats()
    /// stats.completedPerDay.last?.count    // completed today
    /// ```
    ///
    /// - Throws: ``PersistKit/PersistError`` when the store cannot be read.
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
        return TaskStats(completedPerDay: completed, openByProject: try openByProject(open: open),
                         openByPriority: byPriority, overdue: try overdueCount(today: today, now: now, calendar: calendar),
                         open: open, done: try count(.completed))
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
