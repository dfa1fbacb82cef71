import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Relationships: inverses kept at once both ways, storage in SQLite, faults, rollback.
final class RelationshipTests: XCTestCase {
    func testSettingTheToOneAddsToTheInverseAtOnce() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        let home = GProject(context: context), work = GProject(context: context)
        home.name = "Home"; work.name = "Work"
        let task = GTask(context: context)
        task.title = "Buy milk"
        task.project = home
        XCTAssertEqual(home.tasks, [task])
        task.project = work
        XCTAssertEqual(home.tasks, [])
        XCTAssertEqual(work.tasks, [task])
        work.tasks.remove(task)
        XCTAssertNil(task.project)
        home.tasks.insert(task)
        XCTAssertTrue(task.project === home)
    }

    func testRelationshipsAreSavedAndReadBackInAnotherContainer() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("graph.sqlite")
        do {
            let context = try makeGraphContainer(directory, url: url).newContext()
            let owner = GOwner(context: context)
            owner.name = "Ann"
            let project = GProject(context: context)
            project.name = "Home"
            project.owner = owner
            let urgent = GTag(context: context), later = GTag(context: context)
            urgent.label = "urgent"; later.label = "later"
            for title in ["a", "b", "c"] {
                let task = GTask(context: context)
                task.title = title
                task.project = project
                task.tags = title == "a" ? [urgent, later] : [urgent]
            }
            let plan = GPlan(context: context)
            plan.title = "Trip"
            for text in ["pack", "drive", "swim"] {
                let step = GStep(context: context)
                step.text = text
                plan.steps.append(step)
            }
            try context.save()
        }
        let context = try makeGraphContainer(directory, url: url).newContext()
        let projects = try context.fetch(FetchRequest<GProject>())
        XCTAssertEqual(projects.count, 1)
        let project = try XCTUnwrap(projects.first)
        XCTAssertEqual(project.owner?.name, "Ann")
        XCTAssertEqual(project.tasks.map(\.title).sorted(), ["a", "b", "c"])
        let urgent = try XCTUnwrap(context.fetch(FetchRequest<GTag>(predicate: \.label == "urgent")).first)
        XCTAssertEqual(urgent.tasks.map(\.title).sorted(), ["a", "b", "c"])
        let a = try XCTUnwrap(project.tasks.first { $0.title == "a" })
        XCTAssertEqual(a.tags.map(\.label).sorted(), ["later", "urgent"])
        let plan = try XCTUnwrap(context.fetch(FetchRequest<GPlan>()).first)
        XCTAssertEqual(plan.steps.map(\.text), ["pack", "drive", "swim"])
        XCTAssertTrue(plan.steps.allSatisfy { $0.plan === plan })
    }

    /// A saved plan "Trip" with steps a, b, c, d in order.
    private func savedTrip(in context: ManagedObjectContext) throws -> GPlan {
        let plan = GPlan(context: context)
        plan.title = "Trip"
        plan.steps = ["a", "b", "c", "d"].map { text in
            let step = GStep(context: context)
            step.text = text
            return step
        }
        try context.save()
        return plan
    }

    func testOrderedRelationshipKeepsAReorder() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("graph.sqlite")
        do {
            let context = try makeGraphContainer(directory, url: url).newContext()
            let plan = try savedTrip(in: context)
            plan.steps = [plan.steps[3], plan.steps[1], plan.steps[0]]
            XCTAssertEqual(plan.steps.map(\.text), ["d", "b", "a"])
            try context.save()
        }
        let context = try makeGraphContainer(directory, url: url).newContext()
        let plan = try XCTUnwrap(context.fetch(FetchRequest<GPlan>()).first)
        XCTAssertEqual(plan.steps.map(\.text), ["d", "b", "a"])
        let orphan = try XCTUnwrap(context.fetch(FetchRequest<GStep>(predicate: \.text == "c")).first)
        XCTAssertNil(orphan.plan)
    }

    /// Setting the to-one of an ordered list's child appends it, even when the list's positions
    /// have a gap (a child left from the middle): it must not tie with the last child.
    func testSettingTheToOneAppendsAfterAGapInPositions() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("graph.sqlite")
        do {
            let context = try makeGraphContainer(directory, url: url).newContext()
            let plan = try savedTrip(in: context)
            let b = plan.steps[1]
            b.plan = nil
            try context.save()
            XCTAssertEqual(plan.steps.map(\.text), ["a", "c", "d"])
            b.plan = plan
            XCTAssertEqual(plan.steps.map(\.text), ["a", "c", "d", "b"], "before the save")
            try context.save()
        }
        let context = try makeGraphContainer(directory, url: url).newContext()
        let plan = try XCTUnwrap(context.fetch(FetchRequest<GPlan>()).first)
        XCTAssertEqual(plan.steps.map(\.text), ["a", "c", "d", "b"], "read from the store")
    }

    func testManyToManyFromBothSides() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        let task = GTask(context: context)
        task.title = "t"
        let tag = GTag(context: context)
        tag.label = "x"
        tag.tasks.insert(task)
        XCTAssertEqual(task.tags, [tag])
        try context.save()
        task.tags = []
        XCTAssertEqual(tag.tasks, [])
        context.rollback()
        XCTAssertEqual(tag.tasks, [task])
        XCTAssertEqual(task.tags, [tag])
    }

    func testRollbackRestoresBothSides() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        let home = GProject(context: context), work = GProject(context: context)
        home.name = "Home"; work.name = "Work"
        let task = GTask(context: context)
        task.title = "t"
        task.project = home
        try context.save()
        task.project = work
        XCTAssertEqual(work.tasks, [task])
        context.rollback()
        XCTAssertTrue(task.project === home)
        XCTAssertEqual(home.tasks, [task])
        XCTAssertEqual(work.tasks, [])
    }

    func testOneToOneKeepsBothForeignKeys() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        let ann = GPerson(context: context), bob = GPerson(context: context)
        ann.name = "Ann"; bob.name = "Bob"
        let desk = GDesk(context: context)
        desk.number = 1
        ann.desk = desk
        XCTAssertTrue(desk.person === ann)
        desk.person = bob
        XCTAssertNil(ann.desk)
        XCTAssertTrue(bob.desk === desk)
        try context.save()
        let other = try makeGraphContainer(directory).newContext()
        _ = other
    }

    func testRelinkOfOneTaskWritesOneRow() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("graph.sqlite")
        let context = try makeGraphContainer(directory, url: url).newContext()
        let home = GProject(context: context), work = GProject(context: context)
        home.name = "Home"; work.name = "Work"
        for index in 0..<200 {
            let task = GTask(context: context)
            task.title = "t\(index)"
            task.project = home
        }
        try context.save()
        let moved = try XCTUnwrap(home.tasks.first)
        var observed: [String] = []
        let other = try makeGraphContainer(directory, url: url)
        _ = other
        let token = context.addObserver { changes in
            observed += changes.updated.map { "\($0.object.entity.name):\($0.keys.description)" }
        }
        moved.project = work
        try context.save()
        withExtendedLifetime(token) {}
        let versions = try rawVersions(url, table: "GTask")
        XCTAssertEqual(versions.filter { $0 > SchemaSQL.initialRowVersion }.count, 1, "only the moved task's row is written")
        XCTAssertTrue(observed.contains("GTask:project"), "\(observed)")
    }

    func testFetchedObjectsAreFaultsUntilRead() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("graph.sqlite")
        do {
            let context = try makeGraphContainer(directory, url: url).newContext()
            let project = GProject(context: context)
            project.name = "Home"
            let task = GTask(context: context)
            task.title = "t"
            task.project = project
            try context.save()
        }
        let context = try makeGraphContainer(directory, url: url).newContext()
        let task = try XCTUnwrap(context.fetch(FetchRequest<GTask>()).first)
        XCTAssertNil(task.related, "nothing loaded at fetch")
        XCTAssertEqual(context.registeredObjects.count, 1)
        XCTAssertEqual(task.project?.name, "Home")
        XCTAssertEqual(context.registeredObjects.count, 2)
    }

    func testUnchangedObjectsAreHeldWeakly() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        for index in 0..<2_000 {
            let task = GTask(context: context)
            task.title = "t\(index)"
        }
        try context.save()
        XCTAssertEqual(context.registeredObjects.count, 0, "saved objects nobody holds are released")
        var fetched: [GTask]? = try context.fetch(FetchRequest<GTask>())
        XCTAssertEqual(fetched?.count, 2_000)
        XCTAssertEqual(context.registeredObjects.count, 2_000)
        fetched = nil
        XCTAssertEqual(context.registeredObjects.count, 0)
        let again = try context.fetch(FetchRequest<GTask>(predicate: \.title == "t7"))
        XCTAssertEqual(again.first?.title, "t7")
        again.first?.title = "seven"
        let keep = again.first?.objectID
        _ = keep
    }

    func testChangedObjectsStayRegisteredUntilSaved() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        let task = GTask(context: context)
        task.title = "t"
        try context.save()
        let id = task.objectID
        try context.fetch(FetchRequest<GTask>()).first?.title = "changed"
        XCTAssertTrue(context.hasChanges)
        try context.save()
        let reread = try makeGraphContainer(directory).newContext().existingObject(with: id)
        XCTAssertEqual(try reread.value(forKey: "title") as? String, "changed")
    }

    /// The `_version` column of every row of a table.
    /// A to-many derived from the other side's to-ones (a project's tasks), read before another
    /// context saved a new task of the project, holds it after the merge, though this context
    /// holds none of the tasks and nobody observes it.
    func testALoadedToManySeesAnotherContextsNewMember() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        let context = container.newContext()
        let home = GProject(context: context)
        home.name = "home"
        try context.save()
        XCTAssertEqual(home.tasks.count, 0)
        let other = container.newContext()
        let task = GTask(context: other)
        task.title = "t"
        task.project = try XCTUnwrap(other.existingObject(with: home.objectID) as? GProject)
        try other.save()
        context.processPendingChanges()
        XCTAssertEqual(home.tasks.map(\.title), ["t"])
        try other.execute(BatchInsertRequest<GTask>(objects: [["title": "u", "project": home.objectID]]))
        context.processPendingChanges()
        XCTAssertEqual(home.tasks.map(\.title).sorted(), ["t", "u"])
    }

    private func rawVersions(_ url: URL, table: String) throws -> [Int64] {
        let connection = try SQLiteConnection(path: url.path, configuration: .init(synchronous: .full, busyTimeout: 5))
        let statement = try connection.prepare("SELECT _version FROM \"\(table)\"")
        var versions: [Int64] = []
        while try statement.step() { versions.append(statement.int64(at: 0)) }
        return versions
    }
}
