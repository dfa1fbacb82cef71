import Foundation
import PersistKit

/// The task controller: adds, edits, completes, removes and lists tasks, saving every change.
///
/// ```swift
/// let container = try PersistentContainer(model: try TaskStore.makeModel(), store: .sqlite(url))
/// let store = try TaskStore(container: container)   // a new store gets a few example tasks
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

    /// The model TaskModel's stores are made with: the "Task" entity, and the store's own
    /// one-row "StoreInfo" record.
    ///
    /// Its ``PersistKit/ManagedObjectModel/document`` is committed as `Schema/TaskModel/1.json`.
    public static func makeModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [TaskItem.self, StoreInfo.self])
    }

    /// Opens a task store on a container made with ``makeModel()``.
    ///
    /// A new store (one no `TaskStore` has opened before) is staged with a few example tasks
    /// when `stagesSampleData` is true; either way it is marked as seen, so examples are only
    /// ever added once, and a store that was emptied stays empty.
    ///
    /// - Throws: ``PersistKit/PersistError`` when the container's model lacks TaskModel's
    ///   entities or the store cannot be read or written.
    public init(container: PersistentContainer, stagesSampleData: Bool = true) throws {
        self.container = container
        context = container.newContext()
        try prepareNewStore(stagesSampleData: stagesSampleData)
    }

    /// Opens (creating it if needed) the SQLite task store at `url`; its directory must exist.
    ///
    /// - Throws: ``PersistKit/PersistError``: `.notADatabase`, `.incompatibleModel`,
    ///   `.cannotOpenStore` (see ``PersistKit/PersistentContainer/init(model:store:)``).
    public convenience init(url: URL, stagesSampleData: Bool = true) throws {
        let container = try PersistentContainer(model: try TaskStore.makeModel(), store: .sqlite(url))
        try self.init(container: container, stagesSampleData: stagesSampleData)
    }

    // MARK: Changing tasks

    /// Adds a task and saves it.
    ///
    /// The name is trimmed; notes that are empty or only whitespace are stored as nil; dates
    /// are kept to the millisecond.
    ///
    /// - Throws: ``PersistKit/PersistError`` `.validation` (attribute "name") for an empty or
    ///   multi-line name, or any save error. Nothing is added then.
    @discardableResult
    public func add(name: String, notes: String? = nil, due: Date? = nil) throws -> TaskItem {
        let cleanName = TaskStore.cleanName(name)
        try TaskItem.validate(name: cleanName)
        return try saving {
            let task = TaskItem(context: context)
            task.name = cleanName
            task.notes = TaskStore.cleanNotes(notes)
            task.due = due.map(TaskDateCoding.normalized)
            return task
        }
    }

    /// Replaces a task's name, notes and due date (pass the current values to keep them) and
    /// saves.
    ///
    /// - Throws: ``PersistKit/PersistError`` `.validation` for a bad name, `.invalidObject` for
    ///   a task of another store or a deleted one, or any save error. Nothing changes then.
    public func update(_ task: TaskItem, name: String, notes: String?, due: Date?) throws {
        try checkOwned(task)
        let cleanName = TaskStore.cleanName(name)
        try TaskItem.validate(name: cleanName)
        try saving {
            task.name = cleanName
            task.notes = TaskStore.cleanNotes(notes)
            task.due = due.map(TaskDateCoding.normalized)
        }
    }

    /// Marks a task done or not done and saves (nothing is written when it already is).
    ///
    /// - Throws: ``PersistKit/PersistError`` `.invalidObject` for a task of another store or a
    ///   deleted one, or any save error.
    public func setIsComplete(_ task: TaskItem, _ isComplete: Bool) throws {
        try checkOwned(task)
        try saving { task.isComplete = isComplete }
    }

    /// Flips a task between done and not done, and saves.
    ///
    /// - Throws: as ``setIsComplete(_:_:)``.
    public func toggleIsComplete(_ task: TaskItem) throws {
        try setIsComplete(task, !task.isComplete)
    }

    /// Removes a task and saves.
    ///
    /// - Throws: ``PersistKit/PersistError`` `.invalidObject` for a task of another store or an
    ///   already deleted one, or any save error.
    public func remove(_ task: TaskItem) throws {
        try remove([task])
    }

    /// Removes several tasks in one save: all of them, or (when it throws) none.
    ///
    /// - Throws: ``PersistKit/PersistError`` `.invalidObject` for a task of another store or an
    ///   already deleted one, or any save error; nothing is removed then.
    public func remove(_ tasks: [TaskItem]) throws {
        for task in tasks { try checkOwned(task) }
        try saving {
            for task in tasks { context.delete(task) }
        }
    }

    // MARK: Finding tasks

    /// The task with a reference number (`12` for `#12`).
    ///
    /// - Throws: ``PersistKit/PersistError`` `.objectNotFound` ("no task #12") when the store
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

    private func checkOwned(_ task: TaskItem) throws {
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
