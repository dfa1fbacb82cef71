import Foundation
import PersistKit

extension TaskStore {
    /// Records the store as seen, staging example tasks first if it is new.
    ///
    /// New means: no StoreInfo record and no task. (A store with tasks but no record, which no
    /// TaskStore writes, only gets the record: a user's tasks are never mixed with examples.)
    func prepareNewStore(stagesSampleData: Bool) throws {
        let hasInfo = try context.count(for: FetchRequest<StoreInfo>()) > 0
        guard !hasInfo else { return }
        let isEmpty = try context.count(for: FetchRequest<TaskItem>()) == 0
        let stage = stagesSampleData && isEmpty
        do {
            try saving {
                let info = StoreInfo(context: context)
                info.sampleDataStaged = stage
                if stage { insertSampleTasks() }
            }
            didStageSampleData = stage
        } catch let error as PersistError where error.code == .constraintViolation {
            // Another process recorded the store between our count and our save: it is not new.
            return
        }
    }

    /// A few example tasks: one due tomorrow with notes, one due in three days, one without a
    /// date, and one already done. Their dues are calendar days. Every one is created at the
    /// same moment, the store's first; the done one is completed then too, never before.
    private func insertSampleTasks(calendar: Calendar = .current) {
        let now = TaskDateCoding.normalized(clock())
        let today = CalendarDay(date: now, calendar: calendar)
        let samples: [(name: String, notes: String?, due: CalendarDay?, isComplete: Bool)] = [
            ("Buy milk", "Oat milk if they have it\nand bread", today.adding(days: 1), false),
            ("Call mom", nil, today.adding(days: 3), false),
            ("Try the task list", "These are examples: complete, edit or remove them.", nil, false),
            ("Water the plants", nil, nil, true),
        ]
        for sample in samples {
            let task = TaskItem(context: context)
            task.createdAt = now
            task.name = sample.name
            task.notes = sample.notes
            task.due = sample.due?.storedInstant
            task.dueIsDay = sample.due != nil
            task.isComplete = sample.isComplete
            if sample.isComplete { task.completedAt = now }
        }
    }
}
