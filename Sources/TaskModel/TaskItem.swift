import Foundation
import PersistKit

/// One thing to do: a name, optional notes, an optional due day or time, a done/not-done state,
/// a priority, an optional reminder, an optional project and any number of tags; where it
/// stands in the day plan: on a ``Day``'s plan, in the backlog, or neither; and the files
/// attached to it (``Attachment``).
///
/// The class is `TaskItem` but its entity is named "Task": a public class named `Task` would
/// shadow Swift Concurrency's `Task` in every module that imports TaskModel.
///
/// ```swift
/// let store = try TaskStore(container: container)
/// let task = try store.add(name: "Buy milk", notes: nil, due: nil)
/// task.reference      // "#1"
/// ```
///
/// Change tasks through ``TaskStore``, which validates, normalizes and saves every change.
public final class TaskItem: ManagedObject {
    /// The entity's name in the model and the store: "Task".
    override public class var entityName: String { "Task" }

    /// The most characters a task's name may have.
    public static let maximumNameLength = 1000

    /// What to do: required, 1 to 1,000 characters, one line, without leading or trailing
    /// whitespace.
    @Attribute(.minLength(1), .maxLength(TaskItem.maximumNameLength)) public var name: String
    /// Free text about the task; nil when there is none.
    @Attribute public var notes: String?
    /// When the task is due; nil for none. For a due day (``dueIsDay``), the day's midnight in
    /// UTC (read it as ``dueDay``); otherwise an instant. (Tasks of version 1 hold the local
    /// midnight of the day they were given, an instant.)
    @Attribute public var due: Date?
    /// Whether the task is done.
    @Attribute public var isComplete = false
    /// When the task was created, to the millisecond; set when it is inserted.
    @Attribute public var createdAt = Date(timeIntervalSince1970: 0)
    /// Whether ``due`` is a calendar day (shown as the same day in every time zone) rather than
    /// an instant.
    @Attribute public var dueIsDay = false
    /// How much the task matters.
    @Attribute public var priority: TaskPriority = .normal
    /// When the task was completed; nil while it is open, and for tasks completed before
    /// completion times were kept (TaskModel version 1).
    @Attribute public var completedAt: Date?
    /// When to remind about the task (`tasks watch` prints a line then); nil for no reminder.
    @Attribute public var remindAt: Date?
    /// When the task was moved to the backlog (by a review, or taken off a plan); nil while it
    /// is not in the backlog. Planning the task takes it out. (Model version 3.)
    @Attribute public var backloggedAt: Date?
    /// The project the task is filed in; nil for none.
    @Relationship(inverse: \Project.tasks) public var project: Project?
    /// The task's tags.
    @Relationship(inverse: \Tag.tasks) public var tags: Set<Tag>
    /// The day whose plan the task is on; nil for none. A task done on its day stays on that
    /// day's plan after the review; one not done leaves it. (Model version 3.)
    @Relationship(inverse: \Day.tasks) public var day: Day?
    /// The files kept with the task, in the order they were attached; removing the task
    /// removes them. (Model version 3.)
    @Relationship(deleteRule: .cascade) public var attachments: [Attachment]

    /// Records the creation time, rounded to the millisecond so that an export (which writes
    /// milliseconds) gives it back exactly.
    override public func awakeFromInsert() {
        createdAt = TaskDateCoding.normalized(Date())
    }

    /// Refuses to save a task whose name spans lines or is not trimmed. (Its length, 1 to
    /// 1,000 characters, is a rule of the `name` attribute, which the save checks itself.)
    ///
    /// - Throws: `PersistError` with code `.validation`, entity "Task" and
    ///   attribute "name".
    override public func validateForSave() throws {
        // An empty or too long name is reported by the attribute's rules: said once, not twice.
        guard !name.isEmpty, name.count <= TaskItem.maximumNameLength else { return }
        try TaskItem.validate(name: name)
    }

    /// The task's stable reference, its primary key (`12` for `#12`); nil before its first save.
    public var referenceNumber: Int64? { objectID.primaryKey }

    /// The reference as people write it, `#12`; `#?` before the task's first save.
    public var reference: String {
        referenceNumber.map { "#\($0)" } ?? "#?"
    }

    /// The first line of the notes, nil when there are no notes or the first line is blank.
    public var notesFirstLine: String? {
        guard let notes else { return nil }
        let line = notes.split(whereSeparator: \.isNewline).first.map(String.init)?
            .trimmingCharacters(in: .whitespaces) ?? ""
        return line.isEmpty ? nil : line
    }

    /// How the due date stands today: overdue, today, tomorrow or later; nil for a task that is
    /// complete or has no due date.
    ///
    /// ```swift
    /// if task.dueStatus() == .overdue { ... }
    /// ```
    public func dueStatus(now: Date = Date(), calendar: Calendar = .current) -> DueStatus? {
        guard !isComplete, due != nil else { return nil }
        return dueDay(calendar: calendar).map { DueStatus(day: $0, today: CalendarDay(date: now, calendar: calendar)) }
    }

    /// Whether the task waits in the backlog (``backloggedAt`` is set).
    public var isInBacklog: Bool { backloggedAt != nil }

    /// Where the task stands in the day plan.
    public var planPlace: PlanPlace {
        if let day { return .day(day.calendarDay) }
        return backloggedAt == nil ? .none : .backlog
    }

    /// The calendar day of a due day (``dueIsDay``); nil for no due or a due instant.
    public var dueDay: CalendarDay? {
        guard dueIsDay, let due else { return nil }
        return CalendarDay(storedInstant: due)
    }

    /// The day the task is due on, seen from `calendar`'s time zone: the due day itself, or the
    /// local day of a due instant; nil for no due.
    public func dueDay(calendar: Calendar) -> CalendarDay? {
        guard let due else { return nil }
        return dueIsDay ? CalendarDay(storedInstant: due) : CalendarDay(date: due, calendar: calendar)
    }

    /// When the task is due, as a day or an instant; nil for none.
    public var dueValue: TaskDue? {
        guard let due else { return nil }
        return dueIsDay ? .day(CalendarDay(storedInstant: due)) : .time(due)
    }

    /// The tags' names, sorted without regard to case.
    public var tagNames: [String] {
        tags.map(\.name).sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }
    }

    /// Checks a name as a task's name must be: not empty, at most 1,000 characters, one line,
    /// trimmed.
    ///
    /// - Throws: `PersistError` with code `.validation` naming the attribute and the
    ///   problem.
    public static func validate(name: String) throws {
        if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw PersistError(.validation, "a task's name cannot be empty", entity: entityName, attribute: "name")
        }
        let length = name.count
        if length > maximumNameLength {
            throw PersistError(.validation,
                               "a task's name can be at most \(grouped(maximumNameLength)) characters (this one has \(grouped(length)))",
                               entity: entityName, attribute: "name")
        }
        if name.contains(where: \.isNewline) {
            throw PersistError(.validation, "a task's name must be one line", entity: entityName, attribute: "name")
        }
        if name != name.trimmingCharacters(in: .whitespacesAndNewlines) {
            throw PersistError(.validation, "a task's name cannot begin or end with spaces", entity: entityName,
                               attribute: "name")
        }
    }

    /// `1,000`: the numbers of the messages above, grouped the same in every locale.
    private static func grouped(_ number: Int) -> String {
        let digits = String(number)
        return digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : "\(digit)"
        }.joined()
    }
}
