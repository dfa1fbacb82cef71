import Foundation
import PersistKit

extension TaskStore {
    /// Open tasks whose reminder time has come (`remindAt` at or before `now`, by default the
    /// store's ``clock``) and that no ``markReminderShown(_:at:)`` has recorded for that time,
    /// earliest reminder first.
    ///
    /// ```swift
    /// for task in try store.dueReminders() where try store.markReminderShown(task) {
    ///     print("Reminder: \(task.name)")
    /// }
    /// ```
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func dueReminders(now: Date? = nil) throws -> [TaskItem] {
        let now = now ?? clock()
        let predicate: PersistKit.FetchPredicate<TaskItem> = \TaskItem.isComplete == false && \TaskItem.remindAt <= now
        let due = try context.fetch(FetchRequest(predicate: predicate,
                                                 sortBy: [FetchSortDescriptor(\TaskItem.remindAt), FetchSortDescriptor(\TaskItem.createdAt)]))
        guard !due.isEmpty else { return [] }
        let shown = Set(try reminderNotices(of: due).map { NoticeKey(reference: $0.taskReference, remindAt: $0.remindAt) })
        return due.filter { task in
            guard let reference = task.referenceNumber, let remindAt = task.remindAt else { return false }
            return !shown.contains(NoticeKey(reference: reference, remindAt: remindAt))
        }
    }

    /// Records that the task's current reminder was shown, so that ``dueReminders(now:)``
    /// leaves it out from now on (in every process). Returns false when another process
    /// recorded it first (it was shown there), or the task has no reminder.
    ///
    /// - Throws: `PersistError` when the store cannot be written (a read-only
    ///   store: `.cannotOpenStore`).
    @discardableResult
    public func markReminderShown(_ task: TaskItem, at now: Date? = nil) throws -> Bool {
        let now = now ?? clock()
        guard let reference = task.referenceNumber, let remindAt = task.remindAt else { return false }
        do {
            try saving {
                let notice = ReminderNotice(context: context)
                notice.taskReference = reference
                notice.remindAt = remindAt
                notice.shownAt = TaskDateCoding.normalized(now)
            }
            return true
        } catch let error as PersistError where error.code == .constraintViolation {
            return false
        }
    }

    /// The reminder notices recorded for these tasks.
    func reminderNotices(of tasks: [TaskItem]) throws -> [ReminderNotice] {
        let references = tasks.compactMap(\.referenceNumber)
        guard !references.isEmpty else { return [] }
        return try context.fetch(FetchRequest<ReminderNotice>(predicate: .in(\ReminderNotice.taskReference, references)))
    }

    private struct NoticeKey: Hashable {
        let reference: Int64
        let remindAt: Date
    }
}
