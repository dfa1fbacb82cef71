import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// `relationshipKeyPathsForPrefetching`: one query per key path segment whatever the number of
/// objects, and the same answers as reading each relationship on its own, unsaved changes included.
final class PrefetchingTests: XCTestCase {
    // MARK: Queries

    func testToOnePrefetchRunsOneQueryForAThousandTasks() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try buildGraph(in: container, seed: 1)
        let context = container.newContext()
        var request = FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\.title)])
        request.relationshipKeyPathsForPrefetching = ["project"]
        let tasks = try reads(context, expected: 2) { try context.fetch(request) }
        XCTAssertEqual(tasks.count, 1_000)
        // The projects are held by the tasks alone (the identity map does not retain them).
        let names = try reads(context, expected: 0) { tasks.map { $0.project?.name ?? "-" } }
        let plainContext = container.newContext()
        let plain = try plainContext.fetch(FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\.title)]))
        XCTAssertEqual(names, plain.map { $0.project?.name ?? "-" })
        XCTAssertGreaterThan(Set(names).count, 50)
    }

    func testToManyPrefetchRunsOneQueryPerKeyPathForEachKind() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try buildGraph(in: container, seed: 2)
        let plain = container.newContext()   // kept: objects hold their context weakly
        // Derived side of a join table (GTag.tasks owns it).
        var context = container.newContext()
        let tasks = try reads(context, expected: 2) { try context.fetch(prefetching(GTask.self, ["tags"])) }
        let taskTags = try reads(context, expected: 0) { tasks.map { $0.tags.map(\.label).sorted() } }
        XCTAssertEqual(taskTags, try plain.fetch(prefetching(GTask.self, [])).map { $0.tags.map(\.label).sorted() })
        // Owning side of a join table.
        context = container.newContext()
        let tags = try reads(context, expected: 2) { try context.fetch(prefetching(GTag.self, ["tasks"])) }
        let tagTasks = try reads(context, expected: 0) { tags.map { $0.tasks.map(\.title).sorted() } }
        XCTAssertEqual(tagTasks, try plain.fetch(prefetching(GTag.self, [])).map { $0.tasks.map(\.title).sorted() })
        // A to-many whose inverse is a to-one.
        context = container.newContext()
        let projects = try reads(context, expected: 2) { try context.fetch(prefetching(GProject.self, ["tasks"])) }
        let projectTasks = try reads(context, expected: 0) { projects.map { $0.tasks.map(\.title).sorted() } }
        XCTAssertEqual(projectTasks, try plain.fetch(prefetching(GProject.self, [])).map { $0.tasks.map(\.title).sorted() })
        // Ordered: the same order as a read.
        context = container.newContext()
        let plans = try reads(context, expected: 2) { try context.fetch(prefetching(GPlan.self, ["steps"])) }
        let steps = try reads(context, expected: 0) { plans.map { $0.steps.map(\.text) } }
        XCTAssertEqual(steps, try plain.fetch(prefetching(GPlan.self, [])).map { $0.steps.map(\.text) })
        XCTAssertTrue(steps.contains { $0.count > 2 })
    }

    func testKeyPathsThroughRelationshipsPrefetchEachSegmentOnce() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try buildGraph(in: container, seed: 3)
        let context = container.newContext()
        // Segments project, project.owner, tags, tags.tasks (shared prefixes once): a query
        // each. tags.tasks.project needs none: those tasks are the fetched ones, loaded already.
        let request = prefetching(GTask.self, ["project.owner", "project", "tags.tasks.project", "tags"])
        let tasks = try reads(context, expected: 5) { try context.fetch(request) }
        let seen = try reads(context, expected: 0) { describe(tasks) }
        let others = try reads(context, expected: 0) {
            tasks.flatMap { $0.tags.flatMap { $0.tasks.map { "\($0.title):\($0.project?.name ?? "-")" } } }.count
        }
        XCTAssertGreaterThan(others, 1_000)
        let plain = container.newContext()
        XCTAssertEqual(seen, describe(try plain.fetch(prefetching(GTask.self, []))))
    }

    func testControllerPrefetchesToo() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try buildGraph(in: container, seed: 4)
        let context = container.newContext()
        var request = prefetching(GTask.self, ["project"])
        request.sortDescriptors = [FetchSortDescriptor(\.title)]
        let controller = FetchedResultsController(fetchRequest: request, context: context)
        try reads(context, expected: 2) { try controller.performFetch() }
        let names = try reads(context, expected: 0) { controller.fetchedObjects.map { $0.project?.name ?? "-" } }
        XCTAssertEqual(names.count, 1_000)
    }

    func testObjectIDsFetchLoadsNothing() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try buildGraph(in: container, seed: 5)
        let context = container.newContext()
        let ids = try reads(context, expected: 1) { try context.fetchObjectIDs(prefetching(GTask.self, ["project", "tags"])) }
        XCTAssertEqual(ids.count, 1_000)
    }

    // MARK: Misuse

    func testUnknownKeyPathsThrowInvalidRequestNamingThem() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try buildGraph(in: container, seed: 6)
        let context = container.newContext()
        let cases: [(keyPath: String, names: [String])] = [
            ("projet", ["\"projet\"", "GTask", "project, tags"]),
            ("title", ["\"title\"", "an attribute"]),
            ("project.nmae", ["\"project.nmae\"", "\"nmae\"", "GProject"]),
            ("project.", ["\"project.\"", "GProject"]),
            ("", ["\"\"", "GTask"]),
            ("tags..tasks", ["\"tags..tasks\"", "GTag"]),
        ]
        for (keyPath, names) in cases {
            let before = context.store.readsRun
            expectError(try context.fetch(prefetching(GTask.self, ["project", keyPath])), .invalidRequest, keyPath) { error in
                for name in names { XCTAssertTrue(error.message.contains(name), "\(name) in: \(error.message)") }
                XCTAssertEqual(error.entity, "GTask")
                XCTAssertEqual(error.attribute, keyPath)
            }
            XCTAssertEqual(context.store.readsRun, before, "nothing read for an invalid request")
        }
        XCTAssertTrue(context.registeredObjects.isEmpty)
        XCTAssertFalse(context.hasChanges)
    }

    // MARK: Equivalence with pending changes

    func testPrefetchedGraphEqualsUnprefetchedWithPendingChanges() throws {
        let seed = testSeed("PrefetchingTests.testPrefetchedGraphEqualsUnprefetchedWithPendingChanges")
        let rounds = testSize("PrefetchingTests.testPrefetchedGraphEqualsUnprefetchedWithPendingChanges rounds", full: 6, ci: 2)
        let directory = TemporaryDirectory()
        // Two stores with the same graph: one read with prefetching, one without.
        let prefetched = try makeGraphContainer(directory, url: directory.file("a.sqlite"))
        let plain = try makeGraphContainer(directory, url: directory.file("b.sqlite"))
        try buildGraph(in: prefetched, seed: seed, taskCount: 300)
        try buildGraph(in: plain, seed: seed, taskCount: 300)
        let a = prefetched.newContext(), b = plain.newContext()
        var rngA = SeededGenerator(seed: seed &+ 1), rngB = SeededGenerator(seed: seed &+ 1)
        for round in 0..<rounds {
            try mutate(a, round: round, using: &rngA)
            try mutate(b, round: round, using: &rngB)
            try assertSameGraph(a, b, "round \(round), pending changes (seed \(seed))")
            // Prefetched contents stay right when the graph changes after the prefetch.
            try mutate(a, round: round + 100, using: &rngA)
            try mutate(b, round: round + 100, using: &rngB)
            try assertSameGraph(a, b, "round \(round), changes after a prefetch (seed \(seed))")
            if round % 2 == 1 {
                try a.save()
                try b.save()
                try assertSameGraph(a, b, "round \(round), saved (seed \(seed))")
            }
        }
    }

    /// Fetches every entity of the graph in `a` with every relationship prefetched and in `b`
    /// without, and compares what navigating them gives; navigating `a` runs no query.
    private func assertSameGraph(_ a: ManagedObjectContext, _ b: ManagedObjectContext, _ message: String) throws {
        let keyPaths = ["project.owner", "tags.tasks"]
        let tasksA = try a.fetch(prefetching(GTask.self, keyPaths)), tasksB = try b.fetch(prefetching(GTask.self, []))
        let projectsA = try a.fetch(prefetching(GProject.self, ["tasks.tags", "owner.projects"]))
        let projectsB = try b.fetch(prefetching(GProject.self, []))
        let plansA = try a.fetch(prefetching(GPlan.self, ["steps.plan"])), plansB = try b.fetch(prefetching(GPlan.self, []))
        let tagsA = try a.fetch(prefetching(GTag.self, ["tasks"])), tagsB = try b.fetch(prefetching(GTag.self, []))
        let seenA = try reads(a, expected: 0, message) {
            [describe(tasksA), describe(projectsA), describe(plansA), describe(tagsA)]
        }
        XCTAssertEqual(seenA[0], describe(tasksB), "tasks, \(message)")
        XCTAssertEqual(seenA[1], describe(projectsB), "projects, \(message)")
        XCTAssertEqual(seenA[2], describe(plansB), "plans, \(message)")
        XCTAssertEqual(seenA[3], describe(tagsB), "tags, \(message)")
    }

    /// The same random changes in any context holding the same graph (objects are picked from
    /// sorted fetches, so both contexts pick the same ones).
    private func mutate(_ context: ManagedObjectContext, round: Int, using rng: inout SeededGenerator) throws {
        let tasks = try context.fetch(FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\.title)]))
        let projects = try context.fetch(FetchRequest<GProject>(sortBy: [FetchSortDescriptor(\.name)]))
        let tags = try context.fetch(FetchRequest<GTag>(sortBy: [FetchSortDescriptor(\.label)]))
        let plans = try context.fetch(FetchRequest<GPlan>(sortBy: [FetchSortDescriptor(\.title)]))
        for step in 0..<40 {
            guard let task = tasks.randomElement(using: &rng), let project = projects.randomElement(using: &rng),
                  let tag = tags.randomElement(using: &rng), let plan = plans.randomElement(using: &rng) else { return }
            // Deleted in an earlier step (or by a cascade): skipped the same way in both contexts.
            guard !task.isDeleted, !project.isDeleted else { continue }
            let name = "r\(round)s\(step)"
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: task.project = Bool.random(using: &rng) ? project : nil
            case 1:
                let new = GProject(context: context)
                new.name = name
                new.owner = project.owner
                task.project = new
            case 2:
                let new = GTask(context: context)
                new.title = name
                new.project = project
                new.tags = [tag]
            case 3: context.delete(task)
            case 4: context.delete(project)
            case 5: task.tags = Set(tags.filter { _ in Int.random(in: 0..<8, using: &rng) == 0 })
            case 6: tag.tasks.insert(task)
            case 7: plan.steps = plan.steps.shuffled(using: &rng)
            case 8:
                let new = GStep(context: context)
                new.text = name
                new.plan = plan
            default: project.tasks.insert(task)
            }
        }
    }

    // MARK: Helpers

    private func prefetching<T: ManagedObject>(_ type: T.Type, _ keyPaths: [String]) -> FetchRequest<T> {
        var request = FetchRequest<T>()
        request.relationshipKeyPathsForPrefetching = keyPaths
        return request
    }

    /// Runs `body`, asserting it runs `expected` reads on the store.
    @discardableResult
    private func reads<T>(_ context: ManagedObjectContext, expected: Int, _ message: String = "", file: StaticString = #filePath,
                          line: UInt = #line, _ body: () throws -> T) throws -> T {
        let before = context.store.readsRun
        let result = try body()
        XCTAssertEqual(context.store.readsRun - before, expected, "queries run \(message)", file: file, line: line)
        return result
    }

    private func describe(_ tasks: [GTask]) -> [String] {
        tasks.map { task in
            "\(task.title) project=\(task.project?.name ?? "-") owner=\(task.project?.owner?.name ?? "-") "
                + "tags=\(task.tags.map(\.label).sorted()) tagged=\(task.tags.map { $0.tasks.count }.sorted())"
        }.sorted()
    }

    private func describe(_ projects: [GProject]) -> [String] {
        projects.map { project in
            "\(project.name) owner=\(project.owner?.name ?? "-") siblings=\(project.owner?.projects.count ?? 0) "
                + "tasks=\(project.tasks.map { "\($0.title)\($0.tags.map(\.label).sorted())" }.sorted())"
        }.sorted()
    }

    private func describe(_ plans: [GPlan]) -> [String] {
        plans.map { plan in
            "\(plan.title) steps=\(plan.steps.map { "\($0.text)@\($0.plan?.title ?? "-")" })"
        }.sorted()
    }

    private func describe(_ tags: [GTag]) -> [String] {
        tags.map { "\($0.label) tasks=\($0.tasks.map(\.title).sorted())" }.sorted()
    }

    /// Saves a graph in `container`: 5 owners, 100 projects, 1,000 tasks (one in ten without a
    /// project) with up to 3 of 40 tags each, 20 plans of up to 6 steps. The same for a seed.
    private func buildGraph(in container: PersistentContainer, seed: UInt64, taskCount: Int = 1_000) throws {
        var rng = SeededGenerator(seed: seed)
        let context = container.newContext()
        let owners = (0..<5).map { index in
            let owner = GOwner(context: context)
            owner.name = "owner\(index)"
            return owner
        }
        let projects = (0..<100).map { index in
            let project = GProject(context: context)
            project.name = "project\(index)"
            project.owner = Int.random(in: 0..<10, using: &rng) == 0 ? nil : owners.randomElement(using: &rng)
            return project
        }
        let tags = (0..<40).map { index in
            let tag = GTag(context: context)
            tag.label = "tag\(index)"
            return tag
        }
        for index in 0..<taskCount {
            let task = GTask(context: context)
            task.title = String(format: "task%04d", index)
            task.project = Int.random(in: 0..<10, using: &rng) == 0 ? nil : projects.randomElement(using: &rng)
            task.tags = Set((0..<Int.random(in: 0...3, using: &rng)).compactMap { _ in tags.randomElement(using: &rng) })
        }
        for index in 0..<20 {
            let plan = GPlan(context: context)
            plan.title = "plan\(index)"
            plan.steps = (0..<Int.random(in: 0...6, using: &rng)).map { step in
                let new = GStep(context: context)
                new.text = "plan\(index)step\(step)"
                return new
            }
        }
        try context.save()
    }
}
