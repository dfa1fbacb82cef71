import Foundation
import PersistKitTestSupport
@testable import PersistKit

/// A random predicate graph in a context: saved, then (optionally) edited without saving —
/// renames, relinks, nil projects, unsaved inserts linked in, deletions — so fetches must merge
/// the store's answer with the pending state.
struct RandomPredicateGraph {
    var owners: [RPOwner] = []
    var projects: [RPProject] = []
    var tags: [RPTag] = []
    var tasks: [RPTask] = []

    /// Every object ever made, by entity name (deleted and unsaved ones included).
    var objects: [String: [ManagedObject]] {
        ["RPOwner": owners, "RPProject": projects, "RPTag": tags, "RPTask": tasks]
    }

    private static func pick<T>(_ values: [T], _ rng: inout SeededGenerator) -> T? {
        values.isEmpty ? nil : values[Int.random(in: 0..<values.count, using: &rng)]
    }

    private static func name(_ rng: inout SeededGenerator) -> String? {
        Int.random(in: 0..<6, using: &rng) == 0 ? nil : pick(RelationshipPredicateGenerator.strings, &rng)
    }

    private static func rank(_ rng: inout SeededGenerator) -> Int? {
        Int.random(in: 0..<5, using: &rng) == 0 ? nil : pick(RelationshipPredicateGenerator.ints, &rng)
    }

    /// Builds and saves a graph of a few owners, projects and tags and some tens of tasks.
    init(_ context: ManagedObjectContext, using rng: inout SeededGenerator) throws {
        for _ in 0..<Int.random(in: 2...4, using: &rng) { addOwner(context, &rng) }
        for _ in 0..<Int.random(in: 4...8, using: &rng) { addProject(context, &rng) }
        for _ in 0..<Int.random(in: 3...6, using: &rng) { addTag(context, &rng) }
        for _ in 0..<Int.random(in: 15...35, using: &rng) { addTask(context, &rng) }
        try context.save()
    }

    private mutating func addOwner(_ context: ManagedObjectContext, _ rng: inout SeededGenerator) {
        let owner = RPOwner(context: context)
        owner.name = Self.name(&rng)
        owners.append(owner)
    }

    private mutating func addProject(_ context: ManagedObjectContext, _ rng: inout SeededGenerator) {
        let project = RPProject(context: context)
        project.name = Self.name(&rng)
        project.rank = Self.rank(&rng) ?? 0
        project.budget = Bool.random(using: &rng) ? nil : Self.pick(RelationshipPredicateGenerator.doubles, &rng)
        project.owner = Bool.random(using: &rng) ? live(owners).randomElement(using: &rng) : nil
        projects.append(project)
    }

    private mutating func addTag(_ context: ManagedObjectContext, _ rng: inout SeededGenerator) {
        let tag = RPTag(context: context)
        tag.name = Self.name(&rng) ?? ""
        tag.weight = Self.rank(&rng)
        tags.append(tag)
    }

    private mutating func addTask(_ context: ManagedObjectContext, _ rng: inout SeededGenerator) {
        let task = RPTask(context: context)
        task.title = Self.name(&rng) ?? ""
        task.rank = Self.rank(&rng)
        task.done = Bool.random(using: &rng)
        task.project = Int.random(in: 0..<5, using: &rng) == 0 ? nil : live(projects).randomElement(using: &rng)
        task.tags = Set((0..<Int.random(in: 0...3, using: &rng)).compactMap { _ in live(tags).randomElement(using: &rng) })
        task.blocker = Int.random(in: 0..<3, using: &rng) == 0 ? live(tasks).randomElement(using: &rng) : nil
        task.watchers = Set((0..<Int.random(in: 0...2, using: &rng)).compactMap { _ in live(owners).randomElement(using: &rng) })
        tasks.append(task)
    }

    private func live<T: ManagedObject>(_ objects: [T]) -> [T] { objects.filter { !$0.isDeleted } }

    /// Makes `count` random unsaved changes.
    mutating func edit(_ context: ManagedObjectContext, count: Int, using rng: inout SeededGenerator) {
        for _ in 0..<count {
            let task = live(tasks).randomElement(using: &rng), project = live(projects).randomElement(using: &rng)
            let tag = live(tags).randomElement(using: &rng), owner = live(owners).randomElement(using: &rng)
            switch Int.random(in: 0..<14, using: &rng) {
            case 0: project?.name = Self.name(&rng)
            case 1: tag?.name = Self.name(&rng) ?? ""
            case 2: owner?.name = Self.name(&rng)
            case 3: project?.rank = Self.rank(&rng) ?? 0; tag?.weight = Self.rank(&rng)
            case 4: task?.project = Int.random(in: 0..<4, using: &rng) == 0 ? nil : project
            case 5: if let tag { task?.tags.insert(tag) }
            case 6: if let tag { task?.tags.remove(tag) }
            case 7:
                addProject(context, &rng)
                for _ in 0..<Int.random(in: 0...3, using: &rng) { live(tasks).randomElement(using: &rng)?.project = projects.last }
            case 8: addTask(context, &rng)
            case 9:
                addTag(context, &rng)
                if let newTag = tags.last { live(tasks).randomElement(using: &rng)?.tags.insert(newTag) }
            case 10: if let victim = [task, project, tag, owner].compactMap({ $0 as ManagedObject? }).randomElement(using: &rng) {
                context.delete(victim)
            }
            case 11: task?.blocker = Bool.random(using: &rng) ? live(tasks).randomElement(using: &rng) : nil
            case 12: if let owner { task?.watchers.insert(owner) }
            default: task?.title = Self.name(&rng) ?? ""; task?.rank = Self.rank(&rng); project?.owner = owner
            }
        }
    }
}
