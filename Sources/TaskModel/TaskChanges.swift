import Foundation

/// What an add or an edit sets on a task; every part left nil (or empty) leaves that value as
/// it is (as the defaults give it, for a new task).
///
/// The parts that can be removed are double optionals: `.some(nil)` removes the value.
///
/// ```swift
/// var changes = TaskChanges()
/// changes.priority = .high
/// changes.project = .some("Home")      // filed in Home (made if there is none)
/// changes.addedTags = ["errands"]
/// changes.remindAt = .some(nil)        // no reminder any more
/// try store.edit(task, changes)
/// ```
public struct TaskChanges: Sendable, Hashable {
    /// The new name (trimmed; checked as ``TaskItem/validate(name:)`` checks it).
    public var name: String?
    /// The new notes; `.some(nil)` (or blank text) removes them.
    public var notes: String??
    /// The new due day or time; `.some(nil)` removes it.
    public var due: TaskDue??
    /// The new priority.
    public var priority: TaskPriority?
    /// The name of the project to file the task in (made when there is none of that name,
    /// compared without regard to case); `.some(nil)` takes the task out of its project.
    public var project: String??
    /// Tags to put on the task (made when missing; a leading `#` is dropped).
    public var addedTags: [String]
    /// Tags to take off the task; one it does not have is no error.
    public var removedTags: [String]
    /// The new reminder time; `.some(nil)` removes the reminder.
    public var remindAt: Date??

    /// Changes with these parts; nothing changes by default.
    public init(name: String? = nil, notes: String?? = nil, due: TaskDue?? = nil, priority: TaskPriority? = nil,
                project: String?? = nil, addedTags: [String] = [], removedTags: [String] = [], remindAt: Date?? = nil) {
        self.name = name
        self.notes = notes
        self.due = due
        self.priority = priority
        self.project = project
        self.addedTags = addedTags
        self.removedTags = removedTags
        self.remindAt = remindAt
    }

    /// Checks every name the changes set (the task's, the project's, the tags'), cleaned as
    /// ``TaskStore/add(name:_:)`` and ``TaskStore/edit(_:_:)`` clean them, without a store:
    /// what a front end calls to refuse bad input before it opens one.
    ///
    /// ```swift
    /// try TaskChanges(name: " ", addedTags: ["two words"]).validate()   // "a task's name cannot be empty"
    /// ```
    ///
    /// - Throws: `PersistError` `.validation` naming the first bad name's problem.
    public func validate() throws {
        _ = try TaskStore.check(self)
    }

    /// Whether the changes change nothing at all.
    public var isEmpty: Bool {
        name == nil && notes == nil && due == nil && priority == nil && project == nil && addedTags.isEmpty
            && removedTags.isEmpty && remindAt == nil
    }
}
