import Foundation
import PersistKit

// `FetchPredicate` and `FetchSortDescriptor` are spelled `PersistKit.` here: Foundation has
// types of the same names.
extension TaskStore {
    // MARK: Days

    /// The record of `day`; nil when nothing was ever planned for it and it was not reviewed.
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func day(_ day: CalendarDay) throws -> Day? {
        try context.fetch(FetchRequest<Day>(predicate: \Day.date == day.storedInstant)).first
    }

    /// The record of `day`, made (unsaved) when there is none.
    func dayRecord(_ day: CalendarDay) throws -> Day {
        if let found = try self.day(day) { return found }
        let record = Day(context: context)
        record.date = day.storedInstant
        return record
    }

    /// The tasks on `day`'s plan: high priority first, open before done in each priority, then
    /// in list order (by due date, undated last, then by creation).
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func plannedTasks(on day: CalendarDay) throws -> [TaskItem] {
        guard let record = try self.day(day) else { return [] }
        return TaskStore.planOrder(Array(record.tasks))
    }

    /// Tasks in plan order: by priority, high first, then open before done, then by due date
    /// (undated last) and creation.
    static func planOrder(_ tasks: [TaskItem]) -> [TaskItem] {
        tasks.sorted { left, right in
            if left.priority != right.priority { return left.priority > right.priority }
            if left.isComplete != right.isComplete { return !left.isComplete }
            switch (left.due, right.due) {
            case let (l?, r?) where l != r: return l < r
            case (_?, nil): return true
            case (nil, _?): return false
            default: break
            }
            if left.createdAt != right.createdAt { return left.createdAt < right.createdAt }
            return (left.referenceNumber ?? 0) < (right.referenceNumber ?? 0)
        }
    }

    /// The open tasks due on `day` (a due day, or an instant on that day in `calendar`'s time
    /// zone) that are not on its plan, in list order.
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func openTasks(dueOn day: CalendarDay, calendar: Calendar = .current) throws -> [TaskItem] {
        // A bound every due of that day falls within, whatever the zone: checked one by one.
        let near: PersistKit.FetchPredicate<TaskItem> = \TaskItem.isComplete == false
            && \TaskItem.due >= day.adding(days: -1).storedInstant && \TaskItem.due < day.adding(days: 2).storedInstant
        let record = try self.day(day)
        return try context.fetch(FetchRequest(predicate: near, sortBy: TaskStore.listOrder)).filter { task in
            task.dueDay(calendar: calendar) == day && (record == nil || task.day !== record)
        }
    }

    /// The days before `day` that were not reviewed and still hold open tasks, oldest first.
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func unreviewedDays(before day: CalendarDay) throws -> [CalendarDay] {
        let past: PersistKit.FetchPredicate<Day> = \Day.date < day.storedInstant && \Day.reviewedAt == nil
        return try context.fetch(FetchRequest(predicate: past, sortBy: [FetchSortDescriptor(\Day.date)]))
            .filter { $0.tasks.contains { !$0.isComplete } }
            .map(\.calendarDay)
    }

    // MARK: Planning

    /// The first daily limit (high priority first) that planning `tasks` on `day` would pass;
    /// nil when they fit. Only open tasks count; tasks already on that day count once.
    ///
    /// ```swift
    /// if let overflow = try store.overflow(planning: [task], on: today) {
    ///     print(overflow.message(dayName: "today"))   // today already holds 1 of 1 high-priority tasks: ...
    /// }
    /// ```
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func overflow(planning tasks: [TaskItem], on day: CalendarDay) throws -> PlanOverflow? {
        let limits = try dayLimits()
        let record = try self.day(day)
        var seen = Set<ObjectIdentifier>()
        let adding = tasks.filter { !$0.isComplete && (record == nil || $0.day !== record) && seen.insert(ObjectIdentifier($0)).inserted }
        let addingIDs = Set(adding.map(ObjectIdentifier.init))
        let holding = (record?.tasks ?? []).filter { !$0.isComplete && !addingIDs.contains(ObjectIdentifier($0)) }
        for priority in TaskPriority.allCases.reversed() {
            let held = TaskStore.planOrder(holding.filter { $0.priority == priority })
            let added = adding.filter { $0.priority == priority }
            guard !added.isEmpty, held.count + added.count > limits[priority] else { continue }
            return PlanOverflow(day: day, priority: priority, limit: limits[priority], holding: held.compactMap(\.referenceNumber),
                                adding: added.compactMap(\.referenceNumber))
        }
        return nil
    }

    /// Puts tasks on `day`'s plan (from the backlog, another day's plan or neither) and saves:
    /// all of them, or (when it throws) none. Returns where each task was before (a task
    /// already on that day stays, unchanged).
    ///
    /// ```swift
    /// let before = try store.plan([task], on: today)    // [.backlog]: it came from the backlog
    /// ```
    ///
    /// - Throws: `PersistError` `.validation` when a task is done, the day was
    ///   reviewed already, or a daily limit would be passed (the message is
    ///   ``PlanOverflow/message(dayName:)``'s, the day as `2026-11-21`); `.invalidObject` for
    ///   a task of another store or a removed one; any save error.
    @discardableResult
    public func plan(_ tasks: [TaskItem], on day: CalendarDay) throws -> [PlanPlace] {
        for task in tasks { try checkOwned(task) }
        // A task given twice is planned once, and counts once against the limits.
        var seen = Set<ObjectIdentifier>()
        let distinct = tasks.filter { seen.insert(ObjectIdentifier($0)).inserted }
        if let done = tasks.first(where: \.isComplete) {
            throw PersistError(.validation, "task \(done.reference) is done: there is nothing left to plan",
                               entity: TaskItem.entityName, attribute: "day", objectIDs: [done.objectID])
        }
        if let record = try self.day(day), record.isReviewed {
            throw PersistError(.validation, "\(day.isoText) was reviewed already: plan for a day still to come",
                               entity: Day.entityName, attribute: "tasks")
        }
        if let overflow = try overflow(planning: distinct, on: day) {
            throw PersistError(.validation, overflow.message(dayName: day.isoText), entity: Day.entityName, attribute: "tasks")
        }
        let before = tasks.map(\.planPlace)
        try saving {
            let record = try dayRecord(day)
            for task in distinct where task.day !== record {
                task.day = record
                task.backloggedAt = nil
            }
        }
        return before
    }

    /// Takes tasks off their day's plan and saves; the open ones go to the backlog. Returns
    /// where each task was before (a task on no plan stays as it is).
    ///
    /// - Throws: `PersistError` `.invalidObject` for a task of another store or a
    ///   removed one, or any save error; nothing changes then.
    @discardableResult
    public func unplan(_ tasks: [TaskItem]) throws -> [PlanPlace] {
        for task in tasks { try checkOwned(task) }
        let before = tasks.map(\.planPlace)
        let now = TaskDateCoding.normalized(clock())
        try saving {
            for task in tasks where task.day != nil {
                task.day = nil
                if !task.isComplete { task.backloggedAt = now }
            }
        }
        return before
    }

    // MARK: The backlog

    /// The open tasks waiting in the backlog: high priority first, then the longest waiting,
    /// then by creation.
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func backlog() throws -> [TaskItem] {
        let waiting: PersistKit.FetchPredicate<TaskItem> = \TaskItem.isComplete == false && \TaskItem.backloggedAt != nil
        return try context.fetch(FetchRequest(predicate: waiting, sortBy: [
            FetchSortDescriptor(\TaskItem.priority, order: .reverse), FetchSortDescriptor(\TaskItem.backloggedAt),
            FetchSortDescriptor(\TaskItem.createdAt),
        ]))
    }
}
