import Foundation
import PersistKit
import TaskModel

/// What `tasks watch` learns from a merge besides the list's rows: projects and tags renamed
/// (their tasks' rows show the new name), tasks whose place in the day plan changed, files
/// attached and detached, and days reviewed.
///
/// It holds the projects, tags, days and attachments (their rows: no attachment's bytes are
/// read), so that the context merges their changes by other processes and reports them; held
/// afresh after each merge, to hold new ones too.
final class WatchMerge {
    private let store: TaskStore
    private var held: (projects: [Project], tags: [Tag], days: [Day], attachments: [Attachment])
    /// What each held attachment is and whose it is, to name it once it is deleted (a deleted
    /// object no longer says which task it had).
    private var attachmentOwners: [ObjectID: (fileName: String, task: TaskItem)] = [:]
    /// Attachments added and removed in this round, by task reference, in order.
    private var attachmentChanges: [String: [String]] = [:]
    private var renamed: (projects: [Project], tags: [Tag]) = ([], [])
    /// Tasks whose day or backlog place changed, by reference.
    private var replanned: [String: TaskItem] = [:]
    private var reviewed: [Day] = []
    private var merged = false
    private var token: ObservationToken?

    init(store: TaskStore) throws {
        self.store = store
        held = ([], [], [], [])
        try holdAfresh()
        token = store.context.addObserver { [unowned self] changes in self.note(changes) }
    }

    deinit { token?.cancel() }

    private func note(_ changes: ContextChanges) {
        merged = merged || !changes.isEmpty
        for (object, keys) in changes.updated {
            switch object {
            case let project as Project: renamed.projects.append(project)
            case let tag as Tag: renamed.tags.append(tag)
            case let task as TaskItem where keys.contains("day") || keys.contains("backloggedAt"):
                replanned[task.reference] = task
            case let day as Day where keys.contains("reviewedAt") && day.isReviewed:
                reviewed.append(day)
            default:
                break
            }
        }
        for case let day as Day in changes.inserted where day.isReviewed { reviewed.append(day) }
        for case let attachment as Attachment in changes.inserted {
            guard let task = attachment.task else { continue }
            attachmentChanges[task.reference, default: []].append("attached " + TerminalText.visible(attachment.fileName))
        }
        for case let attachment as Attachment in changes.deleted {
            // A task removed with its attachments is one line, the task's.
            guard let owner = attachmentOwners[attachment.objectID], !owner.task.isDeleted else { continue }
            attachmentChanges[owner.task.reference, default: []].append("detached " + TerminalText.visible(owner.fileName))
        }
    }

    /// How a task changed in place says it when its plan changed (`planned for today`, `moved
    /// to the backlog`, `taken off the plan`) or files were attached or detached (`attached
    /// receipt.jpg`).
    func edit(of task: TaskItem) -> String? {
        var words: [String] = []
        if replanned[task.reference] != nil {
            if let day = task.day {
                words.append("planned for " + DateText().dayName(day.calendarDay))
            } else {
                words.append(task.isInBacklog && !task.isComplete ? "moved to the backlog" : "taken off the plan")
            }
        }
        words += attachmentChanges[task.reference] ?? []
        return words.isEmpty ? nil : words.joined(separator: ", ")
    }

    /// The lines after the controller's: its renamed projects' and tags' tasks, then the days
    /// reviewed (`= Reviewed today, Sat, 21 Nov 2026: 2 of 3 planned tasks done, 1 to the backlog`).
    func lines(after reporter: WatchReporter, in controller: FetchedResultsController<TaskItem>) -> [String] {
        var lines: [String] = []
        if !renamed.projects.isEmpty || !renamed.tags.isEmpty {
            lines += reporter.lines(renaming: renamed.projects, renamed.tags, in: controller)
        }
        // An attachment changes no task row: the controller reports none, but the task is told.
        lines += reporter.lines(touching: Set(attachmentChanges.keys), in: controller, edit: edit)
        var seen = Set<CalendarDay>()
        // Now, not when the watch began: a watch may run past midnight.
        let dates = DateText()
        for day in reviewed where seen.insert(day.calendarDay).inserted {
            guard let review = DayReview(day) else { continue }
            guard review.planned > 0 else {
                lines.append("= Reviewed \(dates.dayHeading(review.day)): nothing was planned")
                continue
            }
            var text = "= Reviewed \(dates.dayHeading(review.day)): \(NumberText.grouped(review.completed)) of "
                + NumberText.count(review.planned, "planned task") + " done"
            if review.backlogged > 0 { text += ", \(NumberText.grouped(review.backlogged)) to the backlog" }
            if review.carried > 0 { text += ", \(NumberText.grouped(review.carried)) carried" }
            lines.append(text)
        }
        return lines
    }

    /// Ends a round: forgets what it said, and holds the labels and days afresh after a merge.
    func endRound() throws {
        renamed = ([], [])
        replanned = [:]
        attachmentChanges = [:]
        reviewed = []
        if merged {
            try holdAfresh()
            merged = false
        }
    }

    private func holdAfresh() throws {
        let attachments = try store.context.fetch(FetchRequest<Attachment>())
        held = (try store.projects(), try store.tags(), try store.context.fetch(FetchRequest<Day>()), attachments)
        attachmentOwners = [:]
        for attachment in attachments {
            guard let task = attachment.task else { continue }
            attachmentOwners[attachment.objectID] = (attachment.fileName, task)
        }
    }
}
