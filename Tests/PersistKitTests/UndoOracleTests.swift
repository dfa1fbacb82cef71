import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A generated oracle for undo and redo: random walks of edits (attributes, inserts, deletes
/// with cascades, links on both sides, many-to-many, ordered moves, one-to-ones, saves, and
/// some undos and redos on the way), then undo everything: the graph equals the start; redo
/// everything: it equals the end. Two results controllers over the context replay their change
/// sets throughout and must equal a fresh fetch after every step.
final class UndoOracleTests: XCTestCase {
    private let entityNames = ["GOwner", "GProject", "GTask", "GTag", "GPlan", "GStep", "GPerson", "GDesk"]

    /// Each object's name in the descriptions: its instance, which undo must bring back.
    private var labels: [ObjectIdentifier: String] = [:]
    private var held: [ManagedObject] = []

    func testUndoAllReturnsToTheStartAndRedoAllToTheEnd() throws {
        let seed = testSeed("UndoOracleTests")
        let walks = testSize("UndoOracleTests", full: 40, ci: 10)
        var random = SeededGenerator(seed: seed)
        for walk in 0..<walks {
            guard try runWalk(walk, steps: 50, &random, seed: seed) else { return }
        }
    }

    /// One walk on a fresh store; false after a failure (reported).
    private func runWalk(_ walk: Int, steps: Int, _ random: inout SeededGenerator, seed: UInt64) throws -> Bool {
        labels = [:]
        held = []
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try saveHomeGraph(in: container)
        let context = container.newContext()
        let undo = ContextUndoManager()
        context.undoManager = undo
        for name in entityNames {
            for object in try context.fetch(FetchRequest<ManagedObject>(entityName: name)) { remember(object, "\(name)-start-\(held.count)") }
        }
        let tasks = try ResultsWatcher(FetchedResultsController(fetchRequest: FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\GTask.title)]),
                                                               context: context))
        let steps_ = try ResultsWatcher(FetchedResultsController(fetchRequest: FetchRequest<GStep>(sortBy: [FetchSortDescriptor(\GStep.text)]),
                                                                context: context))
        let start = try describe(context)
        var log: [String] = []
        func check(_ what: String) throws -> Bool {
            let where_ = "seed \(seed) walk \(walk) \(what): " + log.suffix(12).joined(separator: "; ")
            return try checkWatcher(tasks, context, where_) && checkWatcher(steps_, context, where_)
        }
        for step in 0..<steps {
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 8 {
                do { try context.save(); log.append("save") } catch { log.append("save refused") }
            } else if roll < 12 {
                undo.undo()
                log.append("undo")
            } else if roll < 14 {
                undo.redo()
                log.append("redo")
            } else {
                log.append(try perform(&random, step: step, in: context))
            }
            guard try check("step \(step)") else { return false }
        }
        // The end is the last state, with nothing left to redo (a walk may end after an undo).
        while undo.canRedo {
            undo.redo()
            guard try check("redo before the end") else { return false }
        }
        context.processPendingChanges()
        let end = try describe(context)
        var undone = 0
        while undo.canUndo {
            undo.undo()
            undone += 1
            guard try check("undo \(undone)") else { return false }
        }
        let afterUndo = try describe(context)
        if afterUndo != start {
            XCTFail("undo all does not return to the start: seed \(seed) walk \(walk): \(log.joined(separator: "; "))\n"
                    + difference(start, afterUndo))
            return false
        }
        var redone = 0
        while undo.canRedo {
            undo.redo()
            redone += 1
            guard try check("redo \(redone)") else { return false }
        }
        let afterRedo = try describe(context)
        if afterRedo != end {
            XCTFail("redo all does not return to the end: seed \(seed) walk \(walk): \(log.joined(separator: "; "))\n"
                    + difference(end, afterRedo))
            return false
        }
        return true
    }

    // MARK: Operations

    private func remember(_ object: ManagedObject, _ label: String) {
        labels[ObjectIdentifier(object)] = label
        held.append(object)
    }

    private func perform(_ random: inout SeededGenerator, step: Int, in context: ManagedObjectContext) throws -> String {
        let owners = try context.fetch(FetchRequest<GOwner>()), projects = try context.fetch(FetchRequest<GProject>())
        let tasks = try context.fetch(FetchRequest<GTask>()), tags = try context.fetch(FetchRequest<GTag>())
        let plans = try context.fetch(FetchRequest<GPlan>()), stepsList = try context.fetch(FetchRequest<GStep>())
        let people = try context.fetch(FetchRequest<GPerson>()), desks = try context.fetch(FetchRequest<GDesk>())
        func pick<T>(_ objects: [T]) -> T? { objects.isEmpty ? nil : objects[Int.random(in: 0..<objects.count, using: &random)] }
        func label(_ object: ManagedObject?) -> String { object.map { labels[ObjectIdentifier($0)] ?? "?" } ?? "nil" }
        let new = "n\(step)"
        switch Int.random(in: 0..<22, using: &random) {
        case 0:
            let owner = GOwner(context: context)
            owner.name = new
            remember(owner, "GOwner-\(new)")
            if let project = pick(projects) { owner.projects.insert(project) }
            return "insert \(label(owner))"
        case 1:
            let project = GProject(context: context)
            project.name = new
            project.owner = pick(owners)
            remember(project, "GProject-\(new)")
            return "insert \(label(project)) owner \(label(project.owner))"
        case 2, 3:
            let task = GTask(context: context)
            task.title = new
            task.project = pick(projects)
            if let tag = pick(tags) { task.tags = [tag] }
            remember(task, "GTask-\(new)")
            return "insert \(label(task)) project \(label(task.project))"
        case 4:
            let tag = GTag(context: context)
            tag.label = new
            remember(tag, "GTag-\(new)")
            return "insert \(label(tag))"
        case 5:
            let plan = GPlan(context: context)
            plan.title = new
            remember(plan, "GPlan-\(new)")
            return "insert \(label(plan))"
        case 6:
            let step = GStep(context: context)
            step.text = new
            remember(step, "GStep-\(new)")
            if let plan = pick(plans) { plan.steps.insert(step, at: Int.random(in: 0...plan.steps.count, using: &random)) }
            return "insert \(label(step)) into \(label(step.plan))"
        case 7:
            let person = GPerson(context: context)
            person.name = new
            remember(person, "GPerson-\(new)")
            return "insert \(label(person))"
        case 8:
            let desk = GDesk(context: context)
            desk.number = step
            desk.person = pick(people)
            remember(desk, "GDesk-\(new)")
            return "insert \(label(desk)) person \(label(desk.person))"
        case 9:
            guard let task = pick(tasks) else { return "nothing" }
            task.project = Bool.random(using: &random) ? pick(projects) : nil
            return "relink \(label(task)) to \(label(task.project))"
        case 10:
            guard let task = pick(tasks) else { return "nothing" }
            var chosen = Set<GTag>()
            for _ in 0..<Int.random(in: 0...3, using: &random) { if let tag = pick(tags) { chosen.insert(tag) } }
            task.tags = chosen
            return "tags of \(label(task)) = \(chosen.map { label($0) }.sorted())"
        case 11:
            guard let tag = pick(tags), let task = pick(tasks) else { return "nothing" }
            if tag.tasks.contains(task) { tag.tasks.remove(task) } else { tag.tasks.insert(task) }
            return "toggle \(label(task)) in \(label(tag)).tasks"
        case 12:
            guard let plan = pick(plans) else { return "nothing" }
            plan.steps = plan.steps.shuffled(using: &random).filter { _ in Int.random(in: 0..<5, using: &random) > 0 }
            return "reorder \(label(plan)) to \(plan.steps.map { label($0) })"
        case 13:
            guard let step = pick(stepsList) else { return "nothing" }
            step.plan = pick(plans)
            return "move \(label(step)) to \(label(step.plan))"
        case 14:
            guard let person = pick(people) else { return "nothing" }
            person.desk = Bool.random(using: &random) ? pick(desks) : nil
            return "desk of \(label(person)) = \(label(person.desk))"
        case 15:
            guard let project = pick(projects) else { return "nothing" }
            project.owner = pick(owners)
            project.rank = step
            return "owner of \(label(project)) = \(label(project.owner))"
        case 16, 17:
            guard let task = pick(tasks) else { return "nothing" }
            task.title = "\(task.title)'"
            task.done.toggle()
            return "edit \(label(task))"
        case 18:
            guard let step = pick(stepsList) else { return "nothing" }
            step.text = "\(step.text)'"
            return "edit \(label(step))"
        default:
            let all: [ManagedObject] = owners + projects + tasks + tags + plans + stepsList + people + desks
            guard let victim = pick(all) else { return "nothing" }
            context.delete(victim)
            return "delete \(label(victim))"
        }
    }

    // MARK: The graph as data

    /// Every live object of every entity by its label, with its attributes and the labels its
    /// relationships hold (in order for an ordered one).
    private func describe(_ context: ManagedObjectContext) throws -> [String: String] {
        var result: [String: String] = [:]
        for entityName in entityNames {
            for object in try context.fetch(FetchRequest<ManagedObject>(entityName: entityName)) {
                var parts: [String] = []
                for attribute in object.entity.attributes {
                    parts.append("\(attribute.name)=\(String(describing: try object.value(forKey: attribute.name)))")
                }
                for relationship in object.entity.relationships {
                    var related = try object.relatedObjects(forKey: relationship.name).map { labels[ObjectIdentifier($0)] ?? "unknown" }
                    if relationship.kind != .orderedToMany { related.sort() }
                    parts.append("\(relationship.name)=[\(related.joined(separator: ","))]")
                }
                result[labels[ObjectIdentifier(object)] ?? "unknown \(object)"] = parts.joined(separator: " ")
            }
        }
        return result
    }

    private func difference(_ expected: [String: String], _ actual: [String: String]) -> String {
        Set(expected.keys).union(actual.keys).sorted().filter { expected[$0] != actual[$0] }.prefix(20).map {
            "\($0): expected \(expected[$0] ?? "absent"), found \(actual[$0] ?? "absent")"
        }.joined(separator: "\n")
    }

    /// The controller's rows equal a fresh fetch, and its change sets replayed equal its rows.
    private func checkWatcher<T: ManagedObject>(_ watcher: ResultsWatcher<T>, _ context: ManagedObjectContext,
                                                _ where_: String) throws -> Bool {
        let fresh = try context.fetch(watcher.controller.fetchRequest)
        let rows = watcher.controller.fetchedObjects
        // The mirror keeps the temporary IDs a save made permanent: its rows are compared
        // where the IDs are the same kind.
        let mirror = watcher.mirror, current = watcher.current
        let mirrorAgrees = mirror.map(\.count) == current.map(\.count) && zip(mirror.joined(), current.joined()).allSatisfy {
            $0.isTemporary != $1.isTemporary || $0 == $1
        }
        if !rows.elementsEqual(fresh, by: ===) || !mirrorAgrees || !watcher.problems.isEmpty {
            XCTFail("\(T.self) controller differs from a fresh fetch: \(where_)\ncontroller \(rows.map(\.objectID))\n"
                    + "fetch \(fresh.map(\.objectID))\nproblems \(watcher.problems)")
            return false
        }
        return true
    }
}
