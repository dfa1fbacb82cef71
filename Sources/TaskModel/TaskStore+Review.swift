import Foundation
import PersistKit

extension TaskStore {
    /// The review recorded for `day`; nil when it was not reviewed.
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func review(of day: CalendarDay) throws -> DayReview? {
        try self.day(day).flatMap(DayReview.init)
    }

    /// Ends a day: records its review (how many planned tasks were done, in all and per
    /// project), moves the tasks not done to the backlog, or with `carry` to the next day's
    /// plan as far as its limits allow (the rest to the backlog), and saves, all at once.
    ///
    /// A day is reviewed once: a second review changes nothing (``ReviewResult/isNew`` is
    /// false), in this process or another. The next day is the day after `day`, or today when
    /// that has passed (a late review carries into today), skipping days reviewed already.
    ///
    /// ```swift
    /// let result = try store.review(today, carry: true)
    /// print("\(result.review.completed) of \(result.review.planned) done")
    /// ```
    ///
    /// - Parameters:
    ///   - day: the day to review; today or a day before.
    ///   - carry: whether the tasks not done go to the next day's plan (as far as its limits
    ///     allow) instead of the backlog.
    ///   - calendar: where "today" is, for the refusal of a day to come and the next day of a
    ///     late review.
    /// - Throws: `PersistError` `.validation` for a day that has not come yet
    ///   (after today, by the store's ``clock``), or any save error; nothing changes then.
    public func review(_ day: CalendarDay, carry: Bool = false, calendar: Calendar = .current) throws -> ReviewResult {
        let now = TaskDateCoding.normalized(clock())
        let today = CalendarDay(date: now, calendar: calendar)
        guard day <= today else {
            throw PersistError(.validation, "\(day.isoText) has not come yet: a day is reviewed once it has begun",
                               entity: Day.entityName, attribute: "reviewedAt")
        }
        if let reviewed = try previousReview(of: day) { return reviewed }
        let planned = TaskStore.planOrder(Array(try self.day(day)?.tasks ?? []))
        let done = planned.filter(\.isComplete)
        var open = planned.filter { !$0.isComplete }
        var carried: [TaskItem] = []
        var target: CalendarDay?
        if carry && !open.isEmpty {
            let next = try firstOpenDay(from: max(day.adding(days: 1), today))
            target = next
            var room = try roomLeft(on: next)
            carried = open.filter { task in
                guard room[task.priority, default: 0] > 0 else { return false }
                room[task.priority, default: 0] -= 1
                return true
            }
            let carriedIDs = Set(carried.map(ObjectIdentifier.init))
            open.removeAll { carriedIDs.contains(ObjectIdentifier($0)) }
        }
        var counts: [String?: (planned: Int, completed: Int)] = [:]
        for task in planned {
            counts[task.project?.name, default: (0, 0)].planned += 1
            if task.isComplete { counts[task.project?.name, default: (0, 0)].completed += 1 }
        }
        do {
            try saving {
                let record = try dayRecord(day)
                record.reviewedAt = now
                let stats = DayStats(context: context)
                stats.planned = planned.count
                stats.completed = done.count
                stats.backlogged = open.count
                stats.carried = carried.count
                stats.projectCounts = ProjectCompletionList(ProjectCompletion.sorted(counts))
                record.stats = stats
                for task in open {
                    task.day = nil
                    task.backloggedAt = now
                }
                if let target, !carried.isEmpty {
                    let next = try dayRecord(target)
                    for task in carried { task.day = next }
                }
            }
        } catch let error as PersistError where error.code == .conflict || error.code == .constraintViolation {
            // Another process reviewed the day meanwhile (the day's row, or the new one, is
            // taken): its review stands.
            context.processPendingChanges()
            if let reviewed = try previousReview(of: day) { return reviewed }
            throw error
        }
        let review = DayReview(day: day, reviewedAt: now, planned: planned.count, completed: done.count, backlogged: open.count,
                               carried: carried.count, projects: ProjectCompletion.sorted(counts))
        return ReviewResult(review: review, isNew: true, done: done, backlogged: open, carried: carried,
                            carriedTo: carried.isEmpty ? nil : target)
    }

    /// The result of reviewing a day reviewed already: its record, unchanged.
    private func previousReview(of day: CalendarDay) throws -> ReviewResult? {
        guard let record = try self.day(day), let review = DayReview(record) else { return nil }
        return ReviewResult(review: review, isNew: false, done: TaskStore.planOrder(record.tasks.filter(\.isComplete)),
                            backlogged: [], carried: [], carriedTo: nil)
    }

    /// `day`, or the first day after it, that is not reviewed.
    private func firstOpenDay(from day: CalendarDay) throws -> CalendarDay {
        var next = day
        while try self.day(next)?.isReviewed == true { next = next.adding(days: 1) }
        return next
    }

    /// How many more open tasks of each priority `day`'s plan may take.
    private func roomLeft(on day: CalendarDay) throws -> [TaskPriority: Int] {
        let limits = try dayLimits()
        let open = (try self.day(day)?.tasks ?? []).filter { !$0.isComplete }
        var room: [TaskPriority: Int] = [:]
        for priority in TaskPriority.allCases {
            room[priority] = max(0, limits[priority] - open.filter { $0.priority == priority }.count)
        }
        return room
    }
}
