import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Deleting an object that rows still refer to without a delete rule clearing them (a
/// `.noAction` relationship, a one-way to-one): SQLite sets those references NULL, and every
/// context and process hears of it as a change to those rows, so controllers move them.
final class ClearedReferenceTests: XCTestCase {
    private func makeContainer(_ directory: TemporaryDirectory) throws -> PersistentContainer {
        try PersistentContainer(model: try ManagedObjectModel(entities: [NAProject.self, NATask.self]),
                                store: .sqlite(directory.file("cleared.sqlite")))
    }

    /// Tasks t1 (in p, reviewed by q) and t2 (in q); projects p and q. Saved.
    private func seed(_ context: ManagedObjectContext) throws {
        let p = NAProject(context: context), q = NAProject(context: context)
        p.name = "p"
        q.name = "q"
        let t1 = NATask(context: context), t2 = NATask(context: context)
        t1.title = "t1"
        t1.project = p
        t1.reviewer = q
        t2.title = "t2"
        t2.project = q
        try context.save()
    }

    private func sectioned(_ context: ManagedObjectContext, by key: String) throws -> ResultsHarness<NATask> {
        let request = FetchRequest<NATask>(sortBy: [FetchSortDescriptor(key: key, nils: .last), FetchSortDescriptor(\.title)])
        return try ResultsHarness(FetchedResultsController(fetchRequest: request, context: context, sectionNameKey: key))
    }

    private func names(_ harness: ResultsHarness<NATask>) -> [String] { harness.controller.sections.map(\.name) }

    func testNoActionDeleteMovesRowsInEveryContextAndProcess() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(directory)
        let deleting = container.newContext()
        try seed(deleting)
        let watching = container.newContext()
        let here = try sectioned(deleting, by: "project.name"), there = try sectioned(watching, by: "project.name")
        let process = try makeContainer(directory).newContext()
        let elsewhere = try sectioned(process, by: "project.name")
        XCTAssertEqual(names(here), ["p", "q"])
        let t1 = try XCTUnwrap(deleting.fetch(FetchRequest<NATask>(predicate: \.title == "t1")).first)
        let versionBefore = t1.version
        let p = try XCTUnwrap(deleting.fetch(FetchRequest<NAProject>(predicate: \.name == "p")).first)
        deleting.delete(p)
        try deleting.save()
        // The deleting context: its task was read again, and its controller moved it.
        XCTAssertNil(t1.project)
        XCTAssertGreaterThan(t1.version, versionBefore, "the cleared row has a new version")
        XCTAssertEqual(names(here), ["q", ""])
        // Another context of the container, and another process.
        watching.processPendingChanges()
        process.processPendingChanges()
        XCTAssertEqual(names(there), ["q", ""])
        XCTAssertEqual(names(elsewhere), ["q", ""])
        for harness in [here, there, elsewhere] {
            XCTAssertEqual(harness.mirror, harness.current, "replayed change sets")
            XCTAssertEqual(harness.problems, [])
        }
        // The history record names the task as updated, under the relationship.
        let last = try XCTUnwrap(container.history(after: nil).last)
        XCTAssertEqual(last.changes.filter { $0.kind == .update }.map(\.objectID.key), [t1.objectID.key])
        // Saving the task again is no conflict: the context holds its new version.
        t1.title = "t1 again"
        XCTAssertNoThrow(try deleting.save())
    }

    func testOneWayReferenceToADeletedObjectIsClearedVisibly() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(directory)
        let deleting = container.newContext()
        try seed(deleting)
        let watching = container.newContext()
        let there = try sectioned(watching, by: "reviewer.name")
        XCTAssertEqual(names(there), ["q", ""])
        let q = try XCTUnwrap(deleting.fetch(FetchRequest<NAProject>(predicate: \.name == "q")).first)
        deleting.delete(q)
        try deleting.save()
        watching.processPendingChanges()
        XCTAssertEqual(names(there), [""])
        XCTAssertEqual(there.mirror, there.current)
        let fresh = try container.newContext().fetch(FetchRequest<NATask>(predicate: \.title == "t1"))
        let t1 = try XCTUnwrap(fresh.first)
        XCTAssertNil(t1.reviewer)
        // The history names both tasks as updated: t1 under the one-way relationship, t2
        // (in q, whose tasks are `.noAction`) under its project.
        let last = try XCTUnwrap(container.history(after: nil).last)
        let updates = Dictionary(uniqueKeysWithValues: last.changes.filter { $0.kind == .update }.map { ($0.objectID.key, $0.changedKeys) })
        let t2 = try XCTUnwrap(container.newContext().fetch(FetchRequest<NATask>(predicate: \.title == "t2")).first)
        XCTAssertEqual(updates, [t1.objectID.key: ["reviewer"], t2.objectID.key: ["project"]])
    }
}
