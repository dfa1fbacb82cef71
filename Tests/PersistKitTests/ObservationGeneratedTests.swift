import Foundation
import Observation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Random edits through every path (property and key-value sets, to-ones, many-to-many links,
/// inserts, deletes, saves, upserts, rollbacks, refreshes, another context's saves merged) with random
/// tracked reads before each: the tracking's onChange fires exactly when one of the
/// (object, key) pairs it read changed value, once.
///
/// The rule ("every change fires once"), as Swift's `@Observable` keeps it: a tracking fires
/// once, at the first change, when a key it read comes to read differently through the
/// context during the operation; a change and a change back within one operation still fire
/// (`willSet` came at the first). It stays quiet when nothing it read ever reads differently:
/// a value set equal to the one held (`@Observable` skips those since Swift 6.2), or a change
/// in the store that this context's unsaved changes hide (another context moves a task
/// changed here: the task stays in its list here, and neither project's list changes; seeds
/// 1616983738450874679 and 1806488512245200531 found it), or a save that only gives a list's
/// unsaved member its key (416573395935468898), or a save that takes another context's row of
/// an object whose list was read before a link made here, or whose set the store reads in
/// another order (2049782879462081406). No operation below changes a key and changes
/// it back (the upsert takes a new task, not a tracked one), so "read differently during" is
/// "reads differently after", which is what the test compares.
final class ObservationGeneratedTests: XCTestCase {
    /// One key of one object, read as a comparable description.
    private struct TrackedKey {
        let object: ManagedObject
        let key: String
        let read: () -> String
    }

    func testTrackingsFireExactlyWhenAKeyTheyReadChanged() throws {
        var random = SeededGenerator(seed: testSeed("ObservationGeneratedTests"))
        let rounds = testSize("ObservationGeneratedTests", full: 600, ci: 120)
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        let setup = container.newContext()
        for index in 0..<3 {
            let project = GProject(context: setup)
            project.name = "p\(index)"
        }
        for index in 0..<3 {
            let tag = GTag(context: setup)
            tag.label = "g\(index)"
        }
        try setup.save()
        let context = container.newContext()
        context.isObservable = true
        context.mergePolicy = .objectTrump
        let projects = try context.fetch(FetchRequest<GProject>(sortBy: [FetchSortDescriptor(\.name)]))
        let tags = try context.fetch(FetchRequest<GTag>(sortBy: [FetchSortDescriptor(\.label)]))
        var tasks: [GTask] = []
        for index in 0..<5 {
            let task = GTask(context: context)
            task.title = "t\(index)"
            task.project = projects[index % 3]
            tasks.append(task)
        }
        try context.save()
        let other = container.newContext()
        other.mergePolicy = .objectTrump

        func live(_ object: ManagedObject) -> Bool { object.managedObjectContext === context && !object.isDeleted }
        func keys(of object: ManagedObject) -> [TrackedKey] {
            func ids(_ objects: some Sequence<ManagedObject>) -> String {
                objects.map { "\(UInt(bitPattern: ObjectIdentifier($0).hashValue))" }.sorted().joined(separator: ",")
            }
            switch object {
            case let task as GTask:
                return [TrackedKey(object: task, key: "title") { task.title },
                        TrackedKey(object: task, key: "done") { "\(task.done)" },
                        TrackedKey(object: task, key: "project") { task.project.map { "\(UInt(bitPattern: ObjectIdentifier($0).hashValue))" } ?? "nil" },
                        TrackedKey(object: task, key: "tags") { ids(task.tags) }]
            case let project as GProject:
                return [TrackedKey(object: project, key: "rank") { "\(project.rank)" },
                        TrackedKey(object: project, key: "tasks") { ids(project.tasks) }]
            case let tag as GTag:
                return [TrackedKey(object: tag, key: "label") { tag.label },
                        TrackedKey(object: tag, key: "tasks") { ids(tag.tasks) }]
            default:
                return []
            }
        }

        var fired = 0, quiet = 0, left = 0
        for round in 0..<rounds {
            let candidates = (tasks as [ManagedObject] + projects + tags).filter(live).flatMap(keys(of:))
            let tracked = (0..<Int.random(in: 1...10, using: &random)).map { _ in candidates.randomElement(using: &random)! }
            let before = tracked.map { $0.read() }
            let fires = tracking { for key in tracked { _ = key.read() } }
            let operation = try perform(Int.random(in: 0..<15, using: &random), context: context, other: other,
                                        tasks: &tasks, projects: projects, tags: tags, random: &random)
            // An object that left the context (an unsaved insert deleted, a deletion saved)
            // keeps its values but no longer reads its relationships through one: not judged.
            guard tracked.allSatisfy({ live($0.object) || $0.object.isDeleted && $0.object.managedObjectContext === context }) else {
                left += 1
                continue
            }
            let after = tracked.map { $0.read() }
            let changed = zip(before, after).contains { $0 != $1 }
            let what = tracked.map { "\(type(of: $0.object)).\($0.key)" }.joined(separator: " ")
            XCTAssertEqual(fires.count, changed ? 1 : 0, "round \(round): \(operation), tracking \(what): \(before) -> \(after)")
            if changed { fired += 1 } else { quiet += 1 }
            if fires.count != (changed ? 1 : 0) { break }
        }
        print("ObservationGeneratedTests: \(fired) trackings fired, \(quiet) stayed quiet, \(left) read an object that left")
        // That the run changed tracked keys at all: the graph grows (tasks are inserted, not
        // removed), so a random read hits the changed key less often as it goes; 30 seeds
        // fired 12 to 35 times in 600 rounds (seeds 3553334833778033623 and 44476935429482846:
        // 12, which the old bound of rounds / 50 refused).
        XCTAssertGreaterThan(fired, rounds / 100)
        XCTAssertGreaterThan(quiet, rounds / 20)
    }

    /// One random change; returns what it was, for the failure message.
    private func perform(_ choice: Int, context: ManagedObjectContext, other: ManagedObjectContext, tasks: inout [GTask],
                         projects: [GProject], tags: [GTag], random: inout SeededGenerator) throws -> String {
        let live = tasks.filter { $0.managedObjectContext === context && !$0.isDeleted }
        guard let task = live.randomElement(using: &random) else { return "nothing (no task)" }
        switch choice {
        case 0:
            task.title = ["x", "y", task.title].randomElement(using: &random)!
            return "title = \(task.title)"
        case 1:
            try task.setValue(Bool.random(using: &random), forKey: "done")
            return "setValue done"
        case 2:
            task.project = [nil, projects.randomElement(using: &random)!].randomElement(using: &random)!
            return "project = \(task.project?.name ?? "nil")"
        case 3:
            let tag = tags.randomElement(using: &random)!
            if Bool.random(using: &random) { task.$tags.insert(tag) } else { task.$tags.remove(tag) }
            return "tags insert/remove \(tag.label)"
        case 4:
            projects.randomElement(using: &random)!.rank = Int.random(in: 0...2, using: &random)
            return "rank"
        case 5, 6:
            let added = GTask(context: context)
            added.title = "new"
            added.project = projects.randomElement(using: &random)
            tasks.append(added)
            return "insert"
        case 6 where live.count > 3:
            context.delete(task)
            return "delete \(task.title)"
        case 7, 8:
            do { try context.save() } catch { context.rollback() }
            return "save"
        case 9:
            context.rollback()
            return "rollback"
        case 10:
            context.refresh(task, mergeChanges: Bool.random(using: &random))
            return "refresh"
        case 11:
            // An upsert: a new project with a saved one's unique name (merge policy
            // .objectTrump) is absorbed by it at the save, which takes its rank and its task
            // (a new one: a tracked task moved to it would change twice, there and back).
            let project = projects.randomElement(using: &random)!
            let upsert = GProject(context: context)
            upsert.name = project.name
            upsert.rank = Int.random(in: 0...2, using: &random)
            if Bool.random(using: &random) {
                let added = GTask(context: context)
                added.title = "u"
                added.project = upsert
                tasks.append(added)
            }
            do { try context.save() } catch { context.rollback() }
            return "upsert \(project.name) rank \(upsert.rank)"
        default:
            // Another context's save, merged.
            guard let key = task.objectID.primaryKey, let theirs = try? other.existingObject(GTask.self, primaryKey: key),
                  !theirs.isDeleted else { return "nothing (unsaved)" }
            switch Int.random(in: 0..<3, using: &random) {
            case 0: theirs.title = ["x", "y", "z"].randomElement(using: &random)!
            case 1: theirs.done.toggle()
            default:
                let name = projects.randomElement(using: &random)!.name
                theirs.project = try other.fetch(FetchRequest<GProject>(predicate: \.name == name)).first
            }
            do { try other.save() } catch { other.rollback() }
            context.processPendingChanges()
            return "merged another context's save"
        }
    }
}
