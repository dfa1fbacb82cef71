import Foundation
import PersistKit

/// The benchmark's entity: the same four attributes as every other variant's `task` table.
final class BenchTask: ManagedObject {
    override class var entityName: String { "Task" }
    @Attribute var name: String
    @Attribute var notes: String?
    @Attribute var due: Date?
    @Attribute var isComplete = false
}

enum PersistKitBench {
    static func makeModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [BenchTask.self])
    }

    static func openContainer(_ url: URL, model: ManagedObjectModel) throws -> PersistentContainer {
        try PersistentContainer(model: model, store: .sqlite(url, synchronous: .full))
    }

    /// Inserts `tasks` as new objects in `context` (the save is the caller's).
    static func insert(_ tasks: [TaskData], into context: ManagedObjectContext) {
        for data in tasks {
            let task = BenchTask(context: context)
            task.name = data.name
            task.notes = data.notes
            task.due = data.due.map { Date(timeIntervalSince1970: $0) }
            task.isComplete = data.isComplete
        }
    }

    /// A container whose store holds `tasks` (setup, not timed).
    static func populatedContainer(_ url: URL, model: ManagedObjectModel, tasks: [TaskData]) throws -> PersistentContainer {
        let container = try openContainer(url, model: model)
        let context = container.newContext()
        insert(tasks, into: context)
        try context.save()
        return container
    }

    /// All tasks, sorted like every variant: `isComplete`, then `due` with nils last.
    static var sortedRequest: FetchRequest<BenchTask> {
        FetchRequest<BenchTask>(sortBy: [FetchSortDescriptor(\.isComplete), FetchSortDescriptor(\.due, nils: .last)])
    }

    /// Tasks whose name contains "abc" in any case, sorted.
    static var predicateRequest: FetchRequest<BenchTask> {
        FetchRequest<BenchTask>(predicate: .contains(\.name, "abc", options: .caseInsensitive),
                                sortBy: [FetchSortDescriptor(\.isComplete), FetchSortDescriptor(\.due, nils: .last)])
    }

    /// Every task (no sort: in primary-key order).
    static var allRequest: FetchRequest<BenchTask> { FetchRequest<BenchTask>() }

    /// Completed tasks (the update workload's check).
    static var completedRequest: FetchRequest<BenchTask> { FetchRequest<BenchTask>(predicate: \.isComplete == true) }

    /// The count workload's predicate: open tasks due before the median due date.
    static var countRequest: FetchRequest<BenchTask> {
        FetchRequest<BenchTask>(predicate: \.isComplete == false
                                    && \.due < Date(timeIntervalSince1970: DataSet.countDeadline))
    }
}

extension Digest {
    @inline(__always)
    mutating func add(_ task: BenchTask) {
        add(name: task.name, notes: task.notes, due: task.due?.timeIntervalSince1970, isComplete: task.isComplete)
    }

    @inline(__always)
    mutating func add(_ task: PlainTask) {
        add(name: task.name, notes: task.notes, due: task.due?.timeIntervalSince1970, isComplete: task.isComplete)
    }

    @inline(__always)
    mutating func add(_ task: FastTask) {
        add(name: task.name, notes: task.notes, due: task.due?.timeIntervalSince1970, isComplete: task.isComplete)
    }

    @inline(__always)
    mutating func add(_ task: TaskRecord) {
        add(name: task.name, notes: task.notes, due: task.due?.timeIntervalSince1970, isComplete: task.isComplete)
    }
}
