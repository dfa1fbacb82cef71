import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Random changes to the related objects of controllers over tasks: projects renamed, deleted
/// and inserted, tasks relinked, tags linked, unlinked from either side, renamed and deleted,
/// owners renamed and relinked, here (saved or not), in another context of the container, and
/// in another container on the same file (another process, merged from the history), and in
/// child contexts of the watched one (and their children) pushed into it or dropped. After
/// each batch, every controller's rows equal a fresh fetch, its change sets replayed on the old
/// sections give the new sections, and each change set is valid.
final class FetchedResultsControllerGraphReplayOracleTests: XCTestCase {
    /// A controller under test, whatever its entity: its rows as the controller and its replayed
    /// change sets have them, and what a fresh fetch gives.
    private struct Watched {
        let label: String
        let controllerRows: () -> [[ObjectIdentifier]]
        let mirror: () -> [[ObjectIdentifier]]
        let problems: () -> [String]
        /// A fresh fetch's sections, and the controller's and the fetch's objects described.
        let fetched: () throws -> (sections: [[ObjectIdentifier]], controller: [String], fetch: [String])
        let fetchRequest: () throws -> Void
    }

    private static func watch<T: ManagedObject>(_ label: String, _ harness: ResultsHarness<T>, in context: ManagedObjectContext,
                                                sectionKey: ((T) -> String)?, describe: @escaping (T) -> String) -> Watched {
        Watched(label: label, controllerRows: { harness.current }, mirror: { harness.mirror }, problems: { harness.problems },
                fetched: {
                    let fresh = try context.fetch(harness.controller.fetchRequest)
                    return (sections(fresh, key: sectionKey), harness.controller.fetchedObjects.map(describe), fresh.map(describe))
                },
                fetchRequest: { _ = try context.fetch(harness.controller.fetchRequest) })
    }

    private static func describe(_ task: GTask) -> String {
        let project = task.project.map { "\($0.name)#\($0.objectID.key)/\($0.owner?.name ?? "-")" } ?? "-"
        return "\(task.title)#\(task.objectID.key)[\(project) \(task.tags.map { "\($0.label)#\($0.objectID.key)" }.sorted())]"
    }

    private static func describe(_ project: GProject) -> String {
        "\(project.name)#\(project.objectID.key)[\(project.owner?.name ?? "-") \(project.tasks.map { "\($0.title)#\($0.objectID.key)\($0.done ? "+" : "")" }.sorted())]"
    }

    private static let projectNames = (0..<12).map { "p\($0)" }
    private static let labels = ["red", "blue", "green"]
    private static let ownerNames = ["ann", "bob", "cy"]

    func testRandomRelationshipChangesReplayToAFreshFetch() throws {
        let seed = testSeed("FetchedResultsControllerGraphReplayOracleTests.testRandomRelationshipChangesReplayToAFreshFetch")
        let batches = testSize("FetchedResultsControllerGraphReplayOracleTests", full: 160, ci: 100)
        var rng = SeededGenerator(seed: seed)
        for (index, inMemory) in [false, true].enumerated() {
            try run(batches: inMemory ? batches / 2 : batches, inMemory: inMemory, seed: seed, rng: &rng, label: "store \(index)")
        }
    }

    private func run(batches: Int, inMemory: Bool, seed: UInt64, rng: inout SeededGenerator, label: String) throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory, inMemory: inMemory)
        // Another process: a second container on the same file (SQLite only).
        let process = inMemory ? nil : try makeGraphContainer(directory, url: directory.file("graph.sqlite"))
        let context = container.newContext()
        try seedGraph(context, rng: &rng)
        // Set to print every notice the watched context hands its controllers.
        let printsNotices = ProcessInfo.processInfo.environment["PERSISTKIT_ORACLE_NOTICES"] != nil
        let debugToken = context.addObserver { notice in
            guard printsNotices else { return }
            func name(_ object: ManagedObject) -> String { "\(object.entity.name)#\(object.objectID.key)" }
            print("notice: inserted \(notice.inserted.map(name)), updated \(notice.updated.map { name($0.object) + ":\($0.keys)" }), "
                  + "deleted \(notice.deleted.map(name))")
        }
        defer { debugToken.cancel() }
        // Every value that changes between checks must reach the controllers in a notice.
        let ledger = NoticeLedger(context)
        let watched = try controllers(context)
        _ = ledger.unannouncedChanges(in: context)
        let other = container.newContext()
        let remote = process?.newContext()

        // Set to check after every step, to find the step a failure comes from.
        let stepwise = ProcessInfo.processInfo.environment["PERSISTKIT_ORACLE_STEPWISE"] != nil
        // A child of the watched context, kept across steps (and the parent's saves) until dropped.
        var child: ManagedObjectContext?
        for batch in 0..<batches {
            var log: [String] = []
            for _ in 0..<Int.random(in: 1...12, using: &rng) {
                if stepwise {
                    try settle(context, watched)
                    let message = "stepwise: seed \(seed) \(label) batch \(batch): \(log.joined(separator: "; "))"
                    for item in watched where !check(item, message) { return }
                }
                switch Int.random(in: 0..<12, using: &rng) {
                case 10, 11:
                    log.append("child: " + (try changeInChild(&child, of: context, rng: &rng)))
                case 0..<5: log.append(try change(context, rng: &rng))
                case 5:
                    log.append(try saveOrRollBack(context, "save"))
                case 6:
                    if Int.random(in: 0..<4, using: &rng) == 0 {
                        context.rollback()
                        log.append("rollback")
                    }
                case 7, 8:
                    log.append("other: " + (try changeAndSave(other, rng: &rng)))
                default:
                    guard let remote else { continue }
                    log.append("process: " + (try changeAndSave(remote, rng: &rng)))
                }
            }
            try settle(context, watched)
            let message = "seed \(seed) \(label) batch \(batch): \(log.joined(separator: "; "))"
            let untold = ledger.unannouncedChanges(in: context)
            XCTAssertEqual(untold, [], "values changed without a notice; " + message)
            for item in watched where !check(item, message) { return }
            guard untold.isEmpty else { return }
        }
    }

    /// The controllers: over tasks, sorted, sectioned and filtered through relationships, one
    /// with a limit; over projects, filtered and sorted by their tasks and owners.
    private func controllers(_ context: ManagedObjectContext) throws -> [Watched] {
        func tasks(_ label: String, _ predicate: FetchPredicate<GTask>?, _ sorts: [FetchSortDescriptor<GTask>], limit: Int = 0,
                   section: (key: String, name: (GTask) -> String)? = nil) throws -> Watched {
            var request = FetchRequest<GTask>(predicate: predicate, sortBy: sorts)
            request.fetchLimit = limit
            let controller = FetchedResultsController(fetchRequest: request, context: context, sectionNameKey: section?.key)
            return Self.watch(label, try ResultsHarness(controller), in: context, sectionKey: section?.name, describe: Self.describe)
        }
        func projects(_ label: String, _ predicate: FetchPredicate<GProject>?, _ sorts: [FetchSortDescriptor<GProject>]) throws -> Watched {
            let controller = FetchedResultsController(fetchRequest: FetchRequest<GProject>(predicate: predicate, sortBy: sorts), context: context)
            return Self.watch(label, try ResultsHarness(controller), in: context, sectionKey: nil, describe: Self.describe)
        }
        let title = FetchSortDescriptor<GTask>(\.title)
        let byProject = FetchSortDescriptor<GTask>(key: "project.name", nils: .last)
        let byOwner = FetchSortDescriptor<GTask>(key: "project.owner.name", order: .reverse)
        return [
            try tasks("sorted by project", nil, [byProject, title]),
            try tasks("sectioned by project", nil, [byProject, title], section: ("project.name", { $0.project?.name ?? "" })),
            try tasks("filtered by project name", try FetchPredicate(format: "project.name BEGINSWITH 'p1' OR project.name == 'p3'"),
                      [FetchSortDescriptor(\.done), title]),
            try tasks("any tag, by owner", try FetchPredicate(format: "ANY tags.label == 'red'"), [byOwner, title]),
            try tasks("two tags or more", try FetchPredicate(format: "tags.@count >= 2 AND project != nil"), [title]),
            try tasks("sectioned by owner", try FetchPredicate(format: "NONE tags.label == 'blue'"),
                      [byOwner, FetchSortDescriptor(\GTask.project?.rank), title], section: ("project.owner.name", { $0.project?.owner?.name ?? "" })),
            try tasks("limited, by project", try FetchPredicate(format: "project.owner.name != 'cy'"), [byProject, title], limit: 6),
            try projects("projects with two tasks or more", try FetchPredicate(format: "tasks.@count >= 2"), [FetchSortDescriptor(\.name)]),
            try projects("projects with a task done, by owner", try FetchPredicate(format: "ANY tasks.done == YES"),
                         [FetchSortDescriptor(key: "owner.name"), FetchSortDescriptor(\.name)]),
        ]
    }

    /// Hands the controllers every change: a fetch may find objects that another context saved
    /// while they had local changes here (changed back since), and refresh them; controllers
    /// hear of that at the next `processPendingChanges()`, so the fetches run first.
    private func settle(_ context: ManagedObjectContext, _ watched: [Watched]) throws {
        context.processPendingChanges()
        for item in watched { try item.fetchRequest() }
        for entity in [GTask.self, GProject.self, GTag.self, GOwner.self] as [ManagedObject.Type] {
            _ = try context.fetch(FetchRequest<ManagedObject>(entityName: String(describing: entity)))
        }
        context.processPendingChanges()
    }

    /// Whether the controller agrees with a fresh fetch; fails the test with details if not.
    private func check(_ item: Watched, _ message: String) -> Bool {
        let fetched: (sections: [[ObjectIdentifier]], controller: [String], fetch: [String])
        do {
            fetched = try item.fetched()
        } catch {
            XCTFail("\(item.label): fetch failed: \(error); " + message)
            return false
        }
        let expected = fetched.sections, actual = item.controllerRows(), mirror = item.mirror(), problems = item.problems()
        if actual != expected {
            XCTFail("\(item.label): controller differs from a fresh fetch:\n  controller \(fetched.controller)\n  fetch      \(fetched.fetch)\n  "
                    + message)
        }
        XCTAssertEqual(mirror, expected, "\(item.label): replayed change sets differ from a fresh fetch; " + message)
        XCTAssertEqual(problems, [], "\(item.label): " + message)
        return actual == expected && mirror == expected && problems.isEmpty
    }

    private static func sections<T: ManagedObject>(_ objects: [T], key: ((T) -> String)?) -> [[ObjectIdentifier]] {
        guard let key else { return [objects.map(ObjectIdentifier.init)] }
        var result: [[ObjectIdentifier]] = []
        var previous: String?
        for object in objects {
            let name = key(object)
            if previous != name { result.append([]) }
            result[result.count - 1].append(ObjectIdentifier(object))
            previous = name
        }
        return result
    }

    // MARK: The graph and its changes

    private func seedGraph(_ context: ManagedObjectContext, rng: inout SeededGenerator) throws {
        let owners = Self.ownerNames.map { name -> GOwner in
            let owner = GOwner(context: context)
            owner.name = name
            return owner
        }
        var projects: [GProject] = []
        for name in Self.projectNames.prefix(6) {
            let project = GProject(context: context)
            project.name = name
            project.rank = Int.random(in: 0..<3, using: &rng)
            project.owner = owners.randomElement(using: &rng)
            projects.append(project)
        }
        let tags = Self.labels.map { label -> GTag in
            let tag = GTag(context: context)
            tag.label = label
            return tag
        }
        for index in 0..<24 {
            let task = GTask(context: context)
            task.title = "t\(index % 17)"
            task.done = Bool.random(using: &rng)
            task.project = Int.random(in: 0..<5, using: &rng) == 0 ? nil : projects.randomElement(using: &rng)
            task.tags = Set(tags.filter { _ in Int.random(in: 0..<3, using: &rng) == 0 })
        }
        try context.save()
    }

    /// One random change to the graph in `context`; what it did.
    private func change(_ context: ManagedObjectContext, rng: inout SeededGenerator) throws -> String {
        let projects = try context.fetch(FetchRequest<GProject>())
        let tasks = try context.fetch(FetchRequest<GTask>())
        let tags = try context.fetch(FetchRequest<GTag>())
        let owners = try context.fetch(FetchRequest<GOwner>())
        let project = projects.randomElement(using: &rng), task = tasks.randomElement(using: &rng)
        let tag = tags.randomElement(using: &rng)
        switch Int.random(in: 0..<14, using: &rng) {
        case 13:
            guard let task else { return "-" }
            task.done.toggle()
            return "toggle \(task.title)#\(task.objectID.key)"
        case 0, 1:
            // Names are unique: pick one no project here has.
            let taken = Set(projects.map(\.name))
            guard let project, let name = Self.projectNames.filter({ !taken.contains($0) }).randomElement(using: &rng) else { return "-" }
            let old = project.name
            project.name = name
            return "rename \(old) to \(name)"
        case 2, 3:
            guard let task else { return "-" }
            task.project = Int.random(in: 0..<6, using: &rng) == 0 ? nil : project
            return "relink \(task.title)#\(task.objectID.key) to \(task.project?.name ?? "none")"
        case 4:
            guard let task, let tag else { return "-" }
            if Bool.random(using: &rng) { task.tags.insert(tag) } else { tag.tasks.insert(task) }
            return "tag \(task.title)#\(task.objectID.key) \(tag.label)#\(tag.objectID.key)"
        case 5:
            guard let task, let tag else { return "-" }
            if Bool.random(using: &rng) { task.tags.remove(tag) } else { tag.tasks.remove(task) }
            return "untag \(task.title)#\(task.objectID.key) \(tag.label)#\(tag.objectID.key)"
        case 6:
            guard let tag else { return "-" }
            tag.label = Self.labels.randomElement(using: &rng) ?? "red"
            return "relabel a tag \(tag.label)#\(tag.objectID.key)"
        case 7:
            guard let project, projects.count > 3 else { return "-" }
            context.delete(project)
            return "delete project \(project.name)"
        case 8:
            let taken = Set(projects.map(\.name))
            guard let name = Self.projectNames.filter({ !taken.contains($0) }).randomElement(using: &rng) else { return "-" }
            let fresh = GProject(context: context)
            fresh.name = name
            fresh.owner = owners.randomElement(using: &rng)
            fresh.tasks = Set(tasks.filter { _ in Int.random(in: 0..<8, using: &rng) == 0 })
            return "insert project \(name)"
        case 9:
            guard let owner = owners.randomElement(using: &rng) else { return "-" }
            owner.name = Self.ownerNames.randomElement(using: &rng) ?? "ann"
            return "rename an owner \(owner.name)"
        case 10:
            guard let project else { return "-" }
            project.owner = owners.randomElement(using: &rng)
            return "reown \(project.name) to \(project.owner?.name ?? "none")"
        case 11:
            if let tag, tags.count > 2, Bool.random(using: &rng) {
                context.delete(tag)
                return "delete tag \(tag.label)#\(tag.objectID.key)"
            }
            let fresh = GTag(context: context)
            fresh.label = Self.labels.randomElement(using: &rng) ?? "red"
            fresh.tasks = Set(tasks.filter { _ in Int.random(in: 0..<5, using: &rng) == 0 })
            return "insert tag \(fresh.label)"
        default:
            if let task, tasks.count > 16, Bool.random(using: &rng) {
                context.delete(task)
                return "delete task \(task.title)#\(task.objectID.key)"
            }
            let fresh = GTask(context: context)
            fresh.title = "t\(Int.random(in: 0..<17, using: &rng))"
            fresh.project = project
            fresh.tags = Set(tags.filter { _ in Int.random(in: 0..<3, using: &rng) == 0 })
            return "insert task \(fresh.title)"
        }
    }

    /// A few changes in a child of `context` (or in a child of that child, pushed into it),
    /// then pushed into `context` as one notice, or dropped. A push the parent refuses (it
    /// deleted or rolled back an object the child changes, or took a unique name since)
    /// changes nothing, and the child is dropped.
    private func changeInChild(_ child: inout ManagedObjectContext?, of context: ManagedObjectContext,
                               rng: inout SeededGenerator) throws -> String {
        var done: [String] = []
        let isNew = child == nil || Int.random(in: 0..<3, using: &rng) == 0
        // A merge leaves an object with changes here as it was (its save combines keys), while a
        // child reads the stored values under those changes: the graphs are compared only when
        // the parent has no such object.
        let comparable = isNew && context.updatedObjects.isEmpty && context.deletedObjects.isEmpty
        if isNew {
            child = try context.newChildContext()
            done.append("new child")
        }
        guard let current = child else { return "-" }
        if Int.random(in: 0..<3, using: &rng) == 0 {
            let grandchild = try current.newChildContext()
            for _ in 0..<Int.random(in: 1...3, using: &rng) { done.append("grandchild " + (try change(grandchild, rng: &rng))) }
            if Bool.random(using: &rng) {
                do {
                    try grandchild.save()
                    done.append("grandchild pushed")
                } catch let error as PersistError where error.code == .constraintViolation {
                    // The child is older than the parent's latest saves: a name it gave may be taken in the store since.
                    done.append("grandchild push refused (\(error.code))")
                }
            }
        }
        for _ in 0..<Int.random(in: 0...3, using: &rng) { done.append(try change(current, rng: &rng)) }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            child = nil
            done.append("dropped")
        case 1:
            done.append("kept")
        default:
            context.processPendingChanges()
            var notices = 0
            let counting = context.addObserver { _ in notices += 1 }
            defer { counting.cancel() }
            do {
                try current.save()
                // None when the parent holds the child's values already (it made the same edit since).
                XCTAssertLessThanOrEqual(notices, 1, "a push is one notice: \(done)")
                XCTAssertFalse(current.hasChanges)
                done.append("pushed")
                if comparable {
                    // Nothing changed the parent since the child was made: both show the same graph.
                    func graph(_ context: ManagedObjectContext) throws -> [String] {
                        try context.fetch(FetchRequest<GTask>()).map(Self.describe).sorted()
                            + context.fetch(FetchRequest<GProject>()).map(Self.describe).sorted()
                    }
                    XCTAssertEqual(try graph(current), try graph(context), "the push reached the parent whole: \(done)")
                }
            } catch let error as PersistError where [.conflict, .constraintViolation, .objectNotFound].contains(error.code) {
                XCTAssertEqual(notices, 0, "a refused push changes nothing: \(done)")
                child = nil
                done.append("push refused (\(error.code)), dropped")
            }
        }
        return done.joined(separator: ", ")
    }

    /// A few changes in another context, saved (or rolled back on a conflict).
    private func changeAndSave(_ context: ManagedObjectContext, rng: inout SeededGenerator) throws -> String {
        var done: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &rng) { done.append(try change(context, rng: &rng)) }
        return done.joined(separator: ", ") + ", " + (try saveOrRollBack(context, "saved"))
    }

    /// Saves; a conflict with another context's save (or a name it took meanwhile) rolls back.
    private func saveOrRollBack(_ context: ManagedObjectContext, _ what: String) throws -> String {
        do {
            try context.save()
            return what
        } catch let error as PersistError where error.code == .conflict || error.code == .constraintViolation {
            context.rollback()
            for object in context.registeredObjects where !object.isDeleted { context.refresh(object, mergeChanges: false) }
            return what + " failed (\(error.code)), rolled back"
        }
    }
}
