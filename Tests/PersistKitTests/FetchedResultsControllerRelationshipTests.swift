import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The results controller follows related objects: a controller over tasks that filters, sorts
/// or sections by what its tasks read through relationships (`project.name`, `ANY tags.label`,
/// `tags.@count`, `project.owner.name`) moves, inserts and deletes their rows when those
/// related objects change, here or in another context, with exact minimal diffs.
final class FetchedResultsControllerRelationshipTests: XCTestCase {
    private var directory = TemporaryDirectory()

    override func setUp() { directory = TemporaryDirectory() }

    /// A saved graph: projects a, b, c (owners o1 for a and b, o2 for c); tasks a1, a2 in a,
    /// b1 in b, c1 in c, n1 in none; tag "urgent" on a1 and b1, tag "later" on a1.
    private struct Graph {
        let container: PersistentContainer
        let context: ManagedObjectContext
        var projects: [String: GProject] = [:]
        var tasks: [String: GTask] = [:]
        var tags: [String: GTag] = [:]
        var owners: [String: GOwner] = [:]
    }

    private func makeGraph() throws -> Graph {
        let container = try makeGraphContainer(directory)
        var graph = Graph(container: container, context: container.newContext())
        let context = graph.context
        for name in ["o1", "o2"] {
            let owner = GOwner(context: context)
            owner.name = name
            graph.owners[name] = owner
        }
        for (name, owner) in [("a", "o1"), ("b", "o1"), ("c", "o2")] {
            let project = GProject(context: context)
            project.name = name
            project.owner = graph.owners[owner]
            graph.projects[name] = project
        }
        for (title, project) in [("a1", "a"), ("a2", "a"), ("b1", "b"), ("c1", "c"), ("n1", nil)] as [(String, String?)] {
            let task = GTask(context: context)
            task.title = title
            task.project = project.flatMap { graph.projects[$0] }
            graph.tasks[title] = task
        }
        for label in ["urgent", "later"] {
            let tag = GTag(context: context)
            tag.label = label
            graph.tags[label] = tag
        }
        graph.tasks["a1"]?.tags = Set([graph.tags["urgent"], graph.tags["later"]].compactMap { $0 })
        graph.tasks["b1"]?.tags = Set([graph.tags["urgent"]].compactMap { $0 })
        try context.save()
        return graph
    }

    private func request(_ predicate: FetchPredicate<GTask>? = nil, _ sorts: [FetchSortDescriptor<GTask>]) -> FetchRequest<GTask> {
        FetchRequest<GTask>(predicate: predicate, sortBy: sorts)
    }

    private var byProjectName: [FetchSortDescriptor<GTask>] {
        [FetchSortDescriptor(key: "project.name", nils: .last), FetchSortDescriptor(\.title)]
    }

    private func titles(_ harness: ResultsHarness<GTask>) -> [[String]] {
        harness.controller.sections.map { $0.objects.map(\.title) }
    }

    /// The controller's sections, its replayed mirror and a fresh fetch all agree.
    private func assertConsistent(_ harness: ResultsHarness<GTask>, _ context: ManagedObjectContext,
                                  file: StaticString = #filePath, line: UInt = #line) throws {
        let fresh = try context.fetch(harness.controller.fetchRequest)
        XCTAssertEqual(harness.controller.fetchedObjects.map(ObjectIdentifier.init), fresh.map(ObjectIdentifier.init),
                       "controller vs fresh fetch", file: file, line: line)
        XCTAssertEqual(harness.mirror, harness.current, "replayed change sets vs controller", file: file, line: line)
        XCTAssertEqual(harness.problems, [], file: file, line: line)
    }

    // MARK: Sorting by a related object's attribute

    func testRenamingAProjectMovesItsTasks() throws {
        let graph = try makeGraph()
        let harness = try ResultsHarness(FetchedResultsController(fetchRequest: request(nil, byProjectName), context: graph.context))
        XCTAssertEqual(titles(harness), [["a1", "a2", "b1", "c1", "n1"]])
        graph.projects["a"]?.name = "bz"
        graph.context.processPendingChanges()
        XCTAssertEqual(titles(harness), [["b1", "a1", "a2", "c1", "n1"]])
        let change = try XCTUnwrap(harness.last)
        XCTAssertEqual(harness.changes.count, 1)
        // a1 and a2 changed (their project's name), b1 did not: a1 and a2 move past it, as
        // they would if their own keys had changed; a moved row is not also an update.
        XCTAssertEqual(change.movedRows.map(\.from), [IndexPath(item: 0, section: 0), IndexPath(item: 1, section: 0)], "\(change)")
        XCTAssertEqual(change.movedRows.map(\.to), [IndexPath(item: 1, section: 0), IndexPath(item: 2, section: 0)])
        XCTAssertTrue(change.updatedRows.isEmpty)
        XCTAssertTrue(change.insertedRows.isEmpty && change.deletedRows.isEmpty)
        try assertConsistent(harness, graph.context)
    }

    func testRenameWithoutChangingTheOrderIsAnUpdate() throws {
        let graph = try makeGraph()
        let harness = try ResultsHarness(FetchedResultsController(fetchRequest: request(nil, byProjectName), context: graph.context))
        graph.projects["b"]?.name = "bb"
        try graph.context.save()
        let change = try XCTUnwrap(harness.last)
        XCTAssertEqual(change.updatedRows.map(\.from), [IndexPath(item: 2, section: 0)])
        XCTAssertTrue(change.movedRows.isEmpty && change.insertedRows.isEmpty && change.deletedRows.isEmpty, "\(change)")
        try assertConsistent(harness, graph.context)
    }

    func testRelinkingATaskMovesIt() throws {
        let graph = try makeGraph()
        let harness = try ResultsHarness(FetchedResultsController(fetchRequest: request(nil, byProjectName), context: graph.context))
        graph.tasks["n1"]?.project = graph.projects["a"]
        graph.context.processPendingChanges()
        XCTAssertEqual(titles(harness), [["a1", "a2", "n1", "b1", "c1"]])
        let change = try XCTUnwrap(harness.last)
        XCTAssertEqual(change.movedRows.count, 1)
        XCTAssertEqual(change.movedRows.first?.from, IndexPath(item: 4, section: 0))
        XCTAssertEqual(change.movedRows.first?.to, IndexPath(item: 2, section: 0))
        try assertConsistent(harness, graph.context)
    }

    func testMultiHopSortFollowsOwnersAndTheirProjects() throws {
        let graph = try makeGraph()
        let sorts = [FetchSortDescriptor<GTask>(key: "project.owner.name", nils: .last), FetchSortDescriptor(\.title)]
        let harness = try ResultsHarness(FetchedResultsController(fetchRequest: request(nil, sorts), context: graph.context))
        XCTAssertEqual(titles(harness), [["a1", "a2", "b1", "c1", "n1"]])
        graph.owners["o1"]?.name = "o3"          // a and b's owner now sorts after c's
        graph.context.processPendingChanges()
        XCTAssertEqual(titles(harness), [["c1", "a1", "a2", "b1", "n1"]])
        XCTAssertEqual(harness.last?.movedRows.count, 3)   // the three tasks whose owner changed
        graph.projects["b"]?.owner = graph.owners["o2"]   // b1 joins c1 under o2
        graph.context.processPendingChanges()
        XCTAssertEqual(titles(harness), [["b1", "c1", "a1", "a2", "n1"]])
        XCTAssertEqual(harness.last?.movedRows.count, 1)
        try assertConsistent(harness, graph.context)
    }

    // MARK: Filtering by related objects

    func testRenameBringsTasksInAndTakesThemOut() throws {
        let graph = try makeGraph()
        let harness = try ResultsHarness(FetchedResultsController(
            fetchRequest: request(try FetchPredicate(format: "project.name == 'x'"), [FetchSortDescriptor(\.title)]), context: graph.context))
        XCTAssertEqual(titles(harness), [[]])
        graph.projects["a"]?.name = "x"
        graph.context.processPendingChanges()
        XCTAssertEqual(titles(harness), [["a1", "a2"]])
        XCTAssertEqual(harness.last?.insertedRows, [IndexPath(item: 0, section: 0), IndexPath(item: 1, section: 0)])
        graph.projects["b"]?.name = "x2"
        graph.projects["a"]?.name = "y"
        graph.projects["c"]?.name = "x"
        try graph.context.save()
        XCTAssertEqual(titles(harness), [["c1"]])
        let change = try XCTUnwrap(harness.last)
        XCTAssertEqual(change.deletedRows, [IndexPath(item: 0, section: 0), IndexPath(item: 1, section: 0)])
        XCTAssertEqual(change.insertedRows, [IndexPath(item: 0, section: 0)])
        try assertConsistent(harness, graph.context)
    }

    func testAddingAndRemovingATagWithAnAnyPredicate() throws {
        let graph = try makeGraph()
        let harness = try ResultsHarness(FetchedResultsController(
            fetchRequest: request(try FetchPredicate(format: "ANY tags.label == 'urgent'"), [FetchSortDescriptor(\.title)]),
            context: graph.context))
        XCTAssertEqual(titles(harness), [["a1", "b1"]])
        graph.tasks["c1"]?.tags.insert(try XCTUnwrap(graph.tags["urgent"]))
        graph.context.processPendingChanges()
        XCTAssertEqual(titles(harness), [["a1", "b1", "c1"]])
        XCTAssertEqual(harness.last?.insertedRows, [IndexPath(item: 2, section: 0)])
        // From the tag's side.
        graph.tags["urgent"]?.tasks.remove(try XCTUnwrap(graph.tasks["a1"]))
        graph.context.processPendingChanges()
        XCTAssertEqual(titles(harness), [["b1", "c1"]])
        XCTAssertEqual(harness.last?.deletedRows, [IndexPath(item: 0, section: 0)])
        // Renaming the tag changes every task that carries it.
        graph.tags["later"]?.label = "urgent"
        graph.tags["urgent"]?.label = "someday"
        try graph.context.save()
        XCTAssertEqual(titles(harness), [["a1"]])
        try assertConsistent(harness, graph.context)
        // A new tag, inserted and linked.
        let fresh = GTag(context: graph.context)
        fresh.label = "urgent"
        fresh.tasks = Set([graph.tasks["n1"], graph.tasks["a2"]].compactMap { $0 })
        graph.context.processPendingChanges()
        XCTAssertEqual(titles(harness), [["a1", "a2", "n1"]])
        // Deleting a tag takes its tasks out.
        graph.context.delete(fresh)
        graph.context.processPendingChanges()
        XCTAssertEqual(titles(harness), [["a1"]])
        try assertConsistent(harness, graph.context)
    }

    func testCountOfTags() throws {
        let graph = try makeGraph()
        let harness = try ResultsHarness(FetchedResultsController(
            fetchRequest: request(try FetchPredicate(format: "tags.@count >= 1"), [FetchSortDescriptor(\.title)]),
            context: graph.context))
        XCTAssertEqual(titles(harness), [["a1", "b1"]])
        graph.tags["later"]?.tasks = Set([graph.tasks["c1"], graph.tasks["a1"]].compactMap { $0 })
        graph.context.processPendingChanges()
        XCTAssertEqual(titles(harness), [["a1", "b1", "c1"]])
        graph.context.delete(try XCTUnwrap(graph.tags["urgent"]))
        try graph.context.save()
        XCTAssertEqual(titles(harness), [["a1", "c1"]])
        XCTAssertEqual(harness.last?.deletedRows, [IndexPath(item: 1, section: 0)])
        try assertConsistent(harness, graph.context)
    }

    func testDeletingAProjectNullifiesItsTasks() throws {
        let graph = try makeGraph()
        let sorted = try ResultsHarness(FetchedResultsController(fetchRequest: request(nil, byProjectName), context: graph.context))
        let filtered = try ResultsHarness(FetchedResultsController(
            fetchRequest: request(try FetchPredicate(format: "project.name BEGINSWITH 'a'"), [FetchSortDescriptor(\.title)]),
            context: graph.context))
        XCTAssertEqual(titles(filtered), [["a1", "a2"]])
        graph.context.delete(try XCTUnwrap(graph.projects["a"]))
        graph.context.processPendingChanges()
        XCTAssertEqual(titles(sorted), [["b1", "c1", "a1", "a2", "n1"]])
        XCTAssertEqual(titles(filtered), [[]])
        XCTAssertEqual(filtered.last?.deletedRows.count, 2)
        try graph.context.save()
        try assertConsistent(sorted, graph.context)
        try assertConsistent(filtered, graph.context)
        // Undone before saving: the tasks come back.
        graph.context.delete(try XCTUnwrap(graph.projects["b"]))
        graph.context.processPendingChanges()
        XCTAssertEqual(titles(sorted), [["c1", "a1", "a2", "b1", "n1"]])
        graph.context.rollback()
        XCTAssertEqual(titles(sorted), [["b1", "c1", "a1", "a2", "n1"]])
        try assertConsistent(sorted, graph.context)
    }

    // MARK: Sections by a related object's attribute

    func testSectionsByProjectName() throws {
        let graph = try makeGraph()
        let controller = FetchedResultsController(fetchRequest: request(nil, [FetchSortDescriptor(\GTask.project?.name, nils: .last),
                                                                              FetchSortDescriptor(\.title)]),
                                                  context: graph.context, sectionNameKeyPath: \GTask.project?.name)
        let harness = try ResultsHarness(controller)
        XCTAssertEqual(controller.sections.map(\.name), ["a", "b", "c", ""])
        XCTAssertEqual(titles(harness), [["a1", "a2"], ["b1"], ["c1"], ["n1"]])
        // Renaming b to a merges the sections: b's section goes, b1 moves into a's.
        graph.projects["b"]?.name = "a0"
        graph.projects["a"]?.name = "a0x"
        graph.context.processPendingChanges()
        XCTAssertEqual(controller.sections.map(\.name), ["a0", "a0x", "c", ""])
        var change = try XCTUnwrap(harness.last)
        XCTAssertEqual(change.deletedSections, IndexSet([0, 1]), "\(change)")
        XCTAssertEqual(change.insertedSections, IndexSet([0, 1]), "\(change)")
        try assertConsistent(harness, graph.context)
        // Moving a task into another project's section.
        graph.tasks["a1"]?.project = graph.projects["c"]
        graph.context.processPendingChanges()
        XCTAssertEqual(titles(harness), [["b1"], ["a2"], ["a1", "c1"], ["n1"]])
        change = try XCTUnwrap(harness.last)
        XCTAssertEqual(change.movedRows.count, 1)
        XCTAssertEqual(change.movedRows.first?.from, IndexPath(item: 0, section: 1))
        XCTAssertEqual(change.movedRows.first?.to, IndexPath(item: 0, section: 2))
        XCTAssertTrue(change.insertedSections.isEmpty && change.deletedSections.isEmpty)
        // The last task of a section leaves it: the section goes, the task is deleted and inserted.
        graph.tasks["a2"]?.project = graph.projects["b"]
        try graph.context.save()
        XCTAssertEqual(controller.sections.map(\.name), ["a0", "c", ""])
        change = try XCTUnwrap(harness.last)
        XCTAssertEqual(change.deletedSections, IndexSet([1]), "\(change)")
        XCTAssertTrue(change.insertedSections.isEmpty, "\(change)")
        XCTAssertEqual(change.deletedRows, [IndexPath(item: 0, section: 1)])
        XCTAssertEqual(change.insertedRows, [IndexPath(item: 0, section: 0)])
        XCTAssertTrue(change.movedRows.isEmpty)
        XCTAssertEqual(titles(harness), [["a2", "b1"], ["a1", "c1"], ["n1"]])
        try assertConsistent(harness, graph.context)
    }

    // MARK: Other contexts

    func testChangesSavedInAnotherContext() throws {
        let graph = try makeGraph()
        let sorted = try ResultsHarness(FetchedResultsController(fetchRequest: request(nil, byProjectName), context: graph.context))
        let tagged = try ResultsHarness(FetchedResultsController(
            fetchRequest: request(try FetchPredicate(format: "ANY tags.label == 'urgent'"), [FetchSortDescriptor(\.title)]),
            context: graph.context))
        let other = graph.container.newContext()
        let theirs = try other.fetch(FetchRequest<GProject>(predicate: \.name == "a"))
        try XCTUnwrap(theirs.first).name = "z"
        try other.save()
        graph.context.processPendingChanges()
        XCTAssertEqual(titles(sorted), [["b1", "c1", "a1", "a2", "n1"]])
        XCTAssertEqual(sorted.changes.count, 1)
        // Tags linked and unlinked over there.
        let urgent = try XCTUnwrap(other.fetch(FetchRequest<GTag>(predicate: \.label == "urgent")).first)
        let c1 = try XCTUnwrap(other.fetch(FetchRequest<GTask>(predicate: \.title == "c1")).first)
        let b1 = try XCTUnwrap(other.fetch(FetchRequest<GTask>(predicate: \.title == "b1")).first)
        c1.tags.insert(urgent)
        b1.tags.remove(urgent)
        try other.save()
        graph.context.processPendingChanges()
        XCTAssertEqual(titles(tagged), [["a1", "c1"]])
        try assertConsistent(sorted, graph.context)
        try assertConsistent(tagged, graph.context)
        // A tag deleted over there.
        other.delete(urgent)
        try other.save()
        graph.context.processPendingChanges()
        XCTAssertEqual(titles(tagged), [[]])
        try assertConsistent(tagged, graph.context)
    }

    func testChangesSavedByAnotherProcess() throws {
        let graph = try makeGraph()
        let sorted = try ResultsHarness(FetchedResultsController(fetchRequest: request(nil, byProjectName), context: graph.context))
        let tagged = try ResultsHarness(FetchedResultsController(
            fetchRequest: request(try FetchPredicate(format: "ANY tags.label == 'urgent'"), [FetchSortDescriptor(\.title)]),
            context: graph.context))
        var invalidations = 0
        let token = graph.context.addObserver { if $0.invalidatedAll { invalidations += 1 } }
        defer { token.cancel() }
        // Another container on the same file stands for another process: its commits reach this
        // one through the persistent history.
        let process = try makeGraphContainer(directory, url: directory.file("graph.sqlite")).newContext()
        try XCTUnwrap(process.fetch(FetchRequest<GProject>(predicate: \.name == "a")).first).name = "z"
        let urgent = try XCTUnwrap(process.fetch(FetchRequest<GTag>(predicate: \.label == "urgent")).first)
        try XCTUnwrap(process.fetch(FetchRequest<GTask>(predicate: \.title == "n1")).first).tags.insert(urgent)
        try process.save()
        graph.context.processPendingChanges()
        XCTAssertEqual(titles(sorted), [["b1", "c1", "a1", "a2", "n1"]])
        XCTAssertEqual(titles(tagged), [["a1", "b1", "n1"]])
        XCTAssertEqual(invalidations, 0, "merged exactly, not by refetching everything")
        try assertConsistent(sorted, graph.context)
        try assertConsistent(tagged, graph.context)
    }

    /// A context lets go of saved objects nobody holds. One read again after another context
    /// renamed it, and before this context merged that save, has the new name already: the
    /// merge must still tell the controller, whose sections were named by the old one.
    func testAProjectReadAgainBeforeTheMergeStillMovesItsTasks() throws {
        let graph = try makeGraph()
        let watched = graph.container.newContext()
        let controller = FetchedResultsController(fetchRequest: request(nil, byProjectName), context: watched,
                                                  sectionNameKeyPath: \GTask.project?.name)
        let harness = try ResultsHarness(controller)
        XCTAssertEqual(controller.sections.map(\.name), ["a", "b", "c", ""])
        // The tasks forget their loaded projects, which nothing else holds: they go.
        for task in controller.fetchedObjects { watched.refresh(task, mergeChanges: false) }
        XCTAssertEqual(watched.registeredObjects.filter { $0 is GProject }.count, 0, "the projects were let go")
        let other = graph.container.newContext()
        try XCTUnwrap(other.fetch(FetchRequest<GProject>(predicate: \.name == "a")).first).name = "z"
        try other.save()
        // Read before the merge: a new instance, with the new name.
        XCTAssertEqual(controller.fetchedObjects.first { $0.title == "a1" }?.project?.name, "z")
        watched.processPendingChanges()
        XCTAssertEqual(controller.sections.map(\.name), ["b", "c", "z", ""])
        XCTAssertEqual(titles(harness), [["b1"], ["c1"], ["a1", "a2"], ["n1"]])
        try assertConsistent(harness, watched)
    }

    // MARK: Controllers over the other side

    func testProjectsFollowTheirTasks() throws {
        let graph = try makeGraph()
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<GProject>(predicate: try FetchPredicate(format: "tasks.@count >= 2"), sortBy: [FetchSortDescriptor(\.name)]),
            context: graph.context)
        let harness = try ResultsHarness(controller)
        XCTAssertEqual(controller.fetchedObjects.map(\.name), ["a"])
        graph.tasks["n1"]?.project = graph.projects["b"]
        graph.context.processPendingChanges()
        XCTAssertEqual(controller.fetchedObjects.map(\.name), ["a", "b"])
        try graph.context.save()
        // Another context moves a task from a to c: both lists change, though only the task's
        // row is written.
        let other = graph.container.newContext()
        let a2 = try XCTUnwrap(other.fetch(FetchRequest<GTask>(predicate: \.title == "a2")).first)
        a2.project = try XCTUnwrap(other.fetch(FetchRequest<GProject>(predicate: \.name == "c")).first)
        try other.save()
        graph.context.processPendingChanges()
        XCTAssertEqual(controller.fetchedObjects.map(\.name), ["b", "c"])
        XCTAssertEqual(harness.mirror, harness.current)
        XCTAssertEqual(harness.problems, [])
        // Rolled back here: the list the task returns to changes again.
        graph.tasks["c1"]?.project = graph.projects["a"]
        graph.context.processPendingChanges()
        XCTAssertEqual(controller.fetchedObjects.map(\.name), ["a", "b"])
        graph.context.rollback()
        XCTAssertEqual(controller.fetchedObjects.map(\.name), ["b", "c"])
        XCTAssertEqual(harness.mirror, harness.current)
    }

    func testAPathWithoutAnInverseRefetches() throws {
        let directory = TemporaryDirectory()
        let context = try makePredicateGraphContext(directory)
        let blocker = RPTask(context: context), waiting = RPTask(context: context), free = RPTask(context: context)
        blocker.title = "blocker"; waiting.title = "waiting"; free.title = "free"
        blocker.rank = 1
        waiting.blocker = blocker        // one-way: nothing leads back from the blocker
        try context.save()
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<RPTask>(predicate: try FetchPredicate(format: "blocker.rank > 2"), sortBy: [FetchSortDescriptor(\.title)]),
            context: context)
        let harness = try ResultsHarness(controller)
        XCTAssertEqual(controller.fetchedObjects.map(\.title), [])
        blocker.rank = 5
        context.processPendingChanges()
        XCTAssertEqual(controller.fetchedObjects.map(\.title), ["waiting"])
        XCTAssertEqual(harness.last?.insertedRows, [IndexPath(item: 0, section: 0)])
        XCTAssertEqual(controller.updateCounts.refetch, 1)
        XCTAssertEqual(harness.mirror, harness.current)
    }

    // MARK: Changes that do not matter

    func testChangesThatDoNotMatterReportNothing() throws {
        let graph = try makeGraph()
        let empty = GProject(context: graph.context)
        empty.name = "empty"
        try graph.context.save()
        let harness = try ResultsHarness(FetchedResultsController(
            fetchRequest: request(try FetchPredicate(format: "project.name BEGINSWITH 'a' OR project.name == 'c'"), byProjectName),
            context: graph.context))
        XCTAssertEqual(titles(harness), [["a1", "a2", "c1"]])
        empty.name = "nobody's"          // no task belongs to it
        graph.projects["b"]?.name = "bee"  // its task matches neither before nor after
        graph.projects["a"]?.rank = 7     // an attribute nothing reads
        graph.owners["o1"]?.name = "o9"   // an owner nothing reads
        graph.tags["urgent"]?.label = "u" // a tag nothing reads
        try graph.context.save()
        XCTAssertEqual(harness.changes.count, 0, "\(harness.changes)")
        try assertConsistent(harness, graph.context)
    }
}
