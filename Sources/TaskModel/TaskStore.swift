import Foundation
import PersistKit

/// The task controller: adds, edits, completes, removes and lists tasks, saving every change.
///
/// ```swift
/// let container = try PersistentContainer(model: try TaskStore.makeModel(), store: .sqlite(url))
/// let store = try TaskStore(container: container)   // stagesSampleData: true adds a few examples
/// let milk = try store.add(name: "Buy milk", notes: nil, due: nil)
/// try store.toggleIsComplete(milk)
/// let open = try store.tasks(.incomplete, matching: "milk")
/// ```
///
/// Every method that changes tasks saves before it returns; when it throws, nothing changed,
/// in the store or in ``context``. A `TaskStore` is not `Sendable`: use it from one thread or
/// actor, like its context.
public final class TaskStore {
    /// The container whose store holds the tasks.
    public let container: PersistentContainer
    /// The context the store's tasks belong to.
    public let context: ManagedObjectContext
    /// Whether this store was new when opened here and example tasks were added to it.
    public internal(set) var didStageSampleData = false
    /// Where the store reads the current time: tasks' creation and completion times, and the
    /// examples'. `Date()` unless the store was opened with another clock (a test's, or a tool
    /// replaying a session at a fixed time).
    public let clock: () -> Date
    /// What opening the store did when it was written by an older TaskModel (it was migrated,
    /// hashtags becoming tags); nil when it was already current.
    public let upgrade: StoreUpgrade?

    /// The model TaskModel's stores are made with (version 3): the "Task", "Project" and "Tag"
    /// entities, the day plan's "Day" and "DayStats", the tasks' files ("Attachment", their
    /// large contents in the folder `<store file>-external/` beside the store), the store's
    /// own one-row "StoreInfo" record (which keeps the daily limits), and the reminders
    /// `tasks watch` has shown ("ReminderNotice").
    ///
    /// Its `ManagedObjectModel.document` is committed as `Schema/TaskModel/3.json`;
    /// the released versions' are `Schema/TaskModel/1.json` and `2.json` (``TaskModelV1``,
    /// ``TaskModelV2``).
    public static func makeModel() throws -> ManagedObjectModel {
        try makeVersionedModel([TaskItem.self, StoreInfo.self, Project.self, Tag.self, ReminderNotice.self, Day.self,
                                DayStats.self, Attachment.self])
    }

    /// Opens a task store on a container made with ``makeModel()``.
    ///
    /// A new store (one no `TaskStore` has opened before) gets a few example tasks only when
    /// `stagesSampleData` is true (an app's first run); either way it is marked as seen, so
    /// examples are only ever added once, and a store that was emptied stays empty. A store
    /// that is to hold exactly what it is given, such as one restored from an export, leaves
    /// it false.
    ///
    /// - Parameters:
    ///   - container: a container made with ``makeModel()``'s model.
    ///   - stagesSampleData: whether a new store gets a few example tasks.
    ///   - clock: where the store reads the current time (see ``clock``).
    /// - Throws: `PersistError` when the container's model lacks TaskModel's
    ///   entities or the store cannot be read or written.
    public init(container: PersistentContainer, stagesSampleData: Bool = false, clock: @escaping () -> Date = { Date() }) throws {
        self.container = container
        self.clock = clock
        upgrade = TaskStore.upgrade(of: container)
        context = container.newContext()
        try prepareNewStore(stagesSampleData: stagesSampleData)
    }

    /// Opens (creating it if needed) the SQLite task store at `url`; its directory must exist.
    /// A store written by an older TaskModel is migrated first (see ``upgrade``), in one
    /// transaction: killed meanwhile, it is left as it was. A new store is empty unless
    /// `stagesSampleData` is true (see ``init(container:stagesSampleData:clock:)``).
    ///
    /// - Throws: `PersistError`: `.notADatabase`, `.incompatibleModel` (a store of
    ///   a newer TaskModel, or of another program), `.cannotOpenStore` (see
    ///   `PersistentContainer.init(model:store:)`).
    public convenience init(url: URL, stagesSampleData: Bool = false, clock: @escaping () -> Date = { Date() }) throws {
        let container = try TaskStore.makeContainer(url: url)
        try self.init(container: container, stagesSampleData: stagesSampleData, clock: clock)
    }

    // MARK: Changing tasks

    /// Adds a task and saves it.
    ///
    /// The name is trimmed; notes that are empty or only whitespace are stored as nil; dates
    /// are kept to the millisecond. `due` is an instant (see ``add(name:_:)`` for a due day).
    ///
    /// - Throws: `PersistError` `.validation` (attribute "name") for an empty or
    ///   multi-line name, or any save error. Nothing is added then.
    @discardableResult
    public func add(name: String, notes: String? = nil, due: Date? = nil) throws -> TaskItem {
        try add(name: name, TaskChanges(notes: .some(notes), due: .some(due.map(TaskDue.time))))
    }

    /// Adds a task with everything `changes` sets (its name is `name`), and saves it.
    ///
    /// ```swift
    /// let task = try store.add(name: "Buy milk", TaskChanges(due: .some(.day(tomorrow)), project: "Home",
    ///                                                         addedTags: ["errands"]))
    /// ```
    ///
    /// - Throws: `PersistError` `.validation` for a bad task, project or tag name,
    ///   or any save error. Nothing is added (no project or tag made) then.
    @discardableResult
    public func add(name: String, _ changes: TaskChanges) throws -> TaskItem {
        var changes = changes
        changes.name = name
        let checked = try TaskStore.check(changes)
        return try savingLabels {
            let task = TaskItem(context: context)
            task.createdAt = TaskDateCoding.normalized(clock())
            try apply(checked, to: task)
            return task
        }
    }

    /// Replaces a task's name, notes and due date (pass the current values to keep them) and
    /// saves. A due equal to the task's current one keeps its kind (a day stays a day); another
    /// one is an instant.
    ///
    /// - Throws: `PersistError` `.validation` for a bad name, `.invalidObject` for
    ///   a task of another store or a deleted one, or any save error. Nothing changes then.
    public func update(_ task: TaskItem, name: String, notes: String?, due: Date?) throws {
        let keepsDue = due.map(TaskDateCoding.normalized) == task.due
        try edit(task, TaskChanges(name: name, notes: .some(notes), due: keepsDue ? nil : .some(due.map(TaskDue.time))))
    }

    /// Makes the changes to a task and saves, all or (when it throws) none. Returns whether
    /// anything changed: false when the task already was as asked (a tag it has added again, a
    /// tag it lacks removed, its own name given), and then nothing is written.
    ///
    /// - Throws: `PersistError` `.validation` for a bad task, project or tag name,
    ///   `.invalidObject` for a task of another store or a deleted one, or any save error.
    @discardableResult
    public func edit(_ task: TaskItem, _ changes: TaskChanges) throws -> Bool {
        try checkOwned(task)
        let checked = try TaskStore.check(changes)
        return try savingLabels {
            try apply(checked, to: task)
            return context.hasChanges
        }
    }

    /// Marks a task done or not done and saves (nothing is written when it already is).
    /// Completing records ``TaskItem/completedAt``; reopening clears it.
    ///
    /// - Throws: `PersistError` `.invalidObject` for a task of another store or a
    ///   deleted one, or any save error.
    public func setIsComplete(_ task: TaskItem, _ isComplete: Bool) throws {
        try checkOwned(task)
        guard task.isComplete != isComplete else { return }
        try saving {
            task.isComplete = isComplete
            task.completedAt = isComplete ? TaskDateCoding.normalized(clock()) : nil
        }
    }

    /// Flips a task between done and not done, and saves.
    ///
    /// - Throws: as ``setIsComplete(_:_:)``.
    public func toggleIsComplete(_ task: TaskItem) throws {
        try setIsComplete(task, !task.isComplete)
    }

    /// Removes a task and saves.
    ///
    /// - Throws: `PersistError` `.invalidObject` for a task of another store or an
    ///   already deleted one, or any save error.
    public func remove(_ task: TaskItem) throws {
        try remove([task])
    }

    /// Removes several tasks in one save: all of them, or (when it throws) none.
    ///
    /// - Throws: `PersistError` `.invalidObject` for a task of another store or an
    ///   already deleted one, or any save error; nothing is removed then.
    public func remove(_ tasks: [TaskItem]) throws {
        for task in tasks { try checkOwned(task) }
        let notices = try reminderNotices(of: tasks)
        try saving {
            for task in tasks { context.delete(task) }
            for notice in notices { context.delete(notice) }
        }
    }

    // MARK: Finding tasks

    /// The task with a reference number (`12` for `#12`).
    ///
    /// - Throws: `PersistError` `.objectNotFound` ("no task #12") when the store
    ///   has no such task.
    public func task(withReference number: Int64) throws -> TaskItem {
        do {
            return try context.existingObject(TaskItem.self, primaryKey: number)
        } catch let error as PersistError where error.code == .objectNotFound {
            throw PersistError(.objectNotFound, "no task #\(number)", entity: TaskItem.entityName)
        }
    }

    // MARK: Saving

    /// Runs `changes` and saves; if either throws, rolls the context back so nothing changed.
    @discardableResult
    func saving<T>(_ changes: () throws -> T) throws -> T {
        do {
            let result = try changes()
            try context.save()
            return result
        } catch {
            context.rollback()
            throw error
        }
    }

    /// ``saving(_:)``, tried a second time when the save collides with a project or tag another
    /// process made meanwhile under the same name: the second time finds and uses it.
    @discardableResult
    func savingLabels<T>(_ changes: () throws -> T) throws -> T {
        do {
            return try saving(changes)
        } catch let error as PersistError where error.code == .constraintViolation {
            return try saving(changes)
        }
    }

    func checkOwned(_ task: TaskItem) throws {
        guard task.managedObjectContext === context, !task.isDeleted else {
            throw PersistError(.invalidObject,
                task.isDeleted ? "task \(task.reference) was removed" : "task \(task.reference) belongs to another task store",
                entity: TaskItem.entityName, objectIDs: [task.objectID])
        }
    }

    static func cleanName(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func cleanNotes(_ notes: String?) -> String? {
        guard let notes, !notes.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return notes
    }
}
