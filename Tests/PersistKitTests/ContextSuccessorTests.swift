import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Objects that outlive their context keep working (issue 28): a function returns what it
/// fetched in a context of its own, the context is freed, and the objects read their
/// relationships (loaded or not), their attributes, and save their edits through the successor
/// their context handed them to, which goes when they go.
final class ContextSuccessorTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var container: PersistentContainer!

    /// A project "Home" with tasks "a" and "b" ("a" tagged "urgent"), and a plan with steps
    /// "pack" and "go".
    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        container = try makeGraphContainer(directory)
        try saveHomeGraph(in: container)
    }

    /// Fetches in a context of its own, which is freed on return; `load` runs before.
    private func fetched<T: ManagedObject>(_ type: T.Type, in container: PersistentContainer,
                                           load: (T) -> Void = { _ in }) throws -> [T] {
        let context = container.newContext()
        let objects = try context.fetch(FetchRequest<T>())
        objects.forEach(load)
        return objects
    }

    func testObjectsOfAFreedContextReadTheirRelationshipsAndAttributes() throws {
        weak var freed: ManagedObjectContext?
        let projects = try fetched(GProject.self, in: container) { freed = $0.managedObjectContext }
        XCTAssertNil(freed, "the fetching context is gone")
        let project = try XCTUnwrap(projects.first)
        XCTAssertNotNil(project.managedObjectContext, "a successor took it over")
        XCTAssertEqual(project.name, "Home")
        XCTAssertEqual(project.tasks.map(\.title).sorted(), ["a", "b"], "a to-many never loaded loads through the successor")
        XCTAssertEqual(try project.relatedObjects(forKey: "tasks").count, 2)
        let task = try XCTUnwrap(project.tasks.first { $0.title == "a" })
        XCTAssertTrue(task.project === project, "a to-one, in the same successor")
        XCTAssertEqual(task.tags.map(\.label), ["urgent"])

        let loaded = try fetched(GTask.self, in: container) { task in _ = task.tags.count; _ = task.project?.name }
        let first = try XCTUnwrap(loaded.first { $0.title == "a" })
        XCTAssertEqual(first.tags.map(\.label), ["urgent"], "a to-many loaded before the context went")
        XCTAssertEqual(first.project?.name, "Home")
        XCTAssertEqual(first.project?.tasks.count, 2)

        let plan = try XCTUnwrap(try fetched(GPlan.self, in: container).first)
        XCTAssertEqual(plan.steps.map(\.text), ["pack", "go"], "an ordered to-many keeps its order")
        XCTAssertTrue(plan.steps.allSatisfy { $0.plan === plan })
    }

    func testAnEditAfterwardsIsSavedByTheSuccessor() throws {
        let project = try XCTUnwrap(try fetched(GProject.self, in: container).first)
        project.rank = 7
        let task = GTask(context: try XCTUnwrap(project.managedObjectContext))
        task.title = "c"
        project.$tasks.insert(task)
        try XCTUnwrap(project.managedObjectContext).save()
        let reader = container.newContext()
        let stored = try XCTUnwrap(try reader.fetch(FetchRequest<GProject>()).first)
        XCTAssertEqual(stored.rank, 7)
        XCTAssertEqual(stored.tasks.map(\.title).sorted(), ["a", "b", "c"])
    }

    /// The freed context's unsaved change is discarded with it, as a rollback would: the
    /// successor holds what the store holds.
    func testAChangeTheFreedContextHadNotSavedIsDiscarded() throws {
        let tasks = try fetched(GTask.self, in: container) { task in
            task.title += " (unsaved)"
            task.done = true
            if let project = task.project { task.managedObjectContext?.delete(project) }   // nullifies both
        }
        XCTAssertEqual(tasks.map(\.title).sorted(), ["a", "b"])
        XCTAssertFalse(tasks.contains { $0.done })
        XCTAssertEqual(tasks.compactMap { $0.project?.name }, ["Home", "Home"], "the deletion was not saved either")
        XCTAssertFalse(try XCTUnwrap(tasks.first?.project).isDeleted)
        XCTAssertFalse(try XCTUnwrap(tasks.first?.managedObjectContext).hasChanges)
    }

    func testObjectsOfAFreedBackgroundContextReadTheirRelationships() async throws {
        let container: PersistentContainer = container
        let (titles, steps) = try await container.performBackgroundTask { _ in
            // A context of this background thread, freed on return.
            func fetchFirst<T: ManagedObject>(_ type: T.Type) throws -> T? {
                try container.newContext().fetch(FetchRequest<T>()).first
            }
            let project = try fetchFirst(GProject.self)
            let plan = try fetchFirst(GPlan.self)
            return (project?.tasks.map(\.title).sorted() ?? [], plan?.steps.map(\.text) ?? [])
        }
        XCTAssertEqual(titles, ["a", "b"])
        XCTAssertEqual(steps, ["pack", "go"])
    }

    func testTheSuccessorGoesWhenItsObjectsGo() throws {
        let kept = ContextSuccessors.count
        weak var successor: ManagedObjectContext?
        weak var task: GTask?
        do {
            let project = try XCTUnwrap(try fetched(GProject.self, in: container).first)
            successor = project.managedObjectContext
            XCTAssertNotNil(successor)
            task = project.tasks.first
            XCTAssertTrue(task?.managedObjectContext === successor, "objects faulted in through it live there")
            XCTAssertEqual(ContextSuccessors.count, kept + 1)
        }
        XCTAssertNil(task)
        XCTAssertNil(successor, "no object keeps it")
        XCTAssertEqual(ContextSuccessors.count, kept)
    }

    /// A successor's objects outlive it in turn: its own successor takes them.
    func testObjectsLoadedThroughASuccessorOutliveItToo() throws {
        var project: GProject? = try XCTUnwrap(try fetched(GProject.self, in: container).first)
        weak let first = project?.managedObjectContext
        let tasks = project?.tasks ?? []
        project = nil
        XCTAssertNil(first)
        let task = try XCTUnwrap(tasks.first)
        XCTAssertNotNil(task.managedObjectContext)
        XCTAssertEqual(task.project?.name, "Home")
        XCTAssertEqual(task.project?.tasks.count, 2)
    }

    /// An object deleted and saved has no row: it keeps reading its relationships as empty,
    /// and the keyed form names it, as after `reset()`.
    func testADeletionSavedStillReadsEmpty() throws {
        let context = container.newContext()
        let task = try XCTUnwrap(try context.fetch(FetchRequest<GTask>(predicate: \.title == "a")).first)
        context.delete(task)
        try context.save()
        XCTAssertNil(task.managedObjectContext)
        XCTAssertNil(task.project)
        XCTAssertThrowsError(try task.relatedObjects(forKey: "project"))
    }
}
