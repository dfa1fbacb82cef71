import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// `project.$tasks.insert(task)` and `.remove(task)` (issue 28): one link changed at a time
/// keeps the inverse as an assignment does, refuses what an assignment refuses, and costs the
/// same whatever the list's length (counted, not timed: the context counts the list elements
/// its edits look at or copy).
final class RelationshipLinksTests: XCTestCase {
    func testLinksKeepTheInverseAndAreSaved() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        let context = container.newContext()
        let project = GProject(context: context)
        project.name = "p"
        let tag = GTag(context: context)
        tag.label = "g"
        let plan = GPlan(context: context)
        plan.title = "plan"
        let tasks = (0..<3).map { index -> GTask in
            let task = GTask(context: context)
            task.title = "t\(index)"
            return task
        }
        let steps = (0..<3).map { index -> GStep in
            let step = GStep(context: context)
            step.text = "s\(index)"
            return step
        }
        for task in tasks { project.$tasks.insert(task) }
        project.$tasks.insert(tasks[0])
        XCTAssertEqual(project.tasks, Set(tasks))
        XCTAssertTrue(tasks.allSatisfy { $0.project === project })
        XCTAssertEqual(project.$tasks.count, 3)
        project.$tasks.remove(tasks[1])
        XCTAssertNil(tasks[1].project)
        XCTAssertFalse(project.$tasks.contains(tasks[1]))
        XCTAssertTrue(project.$tasks.contains(tasks[2]))

        tag.$tasks.insert(tasks[0])                    // through the derived side of a many-to-many
        tasks[1].$tags.insert(tag)                     // through the owning side
        XCTAssertEqual(tag.tasks, [tasks[0], tasks[1]])
        XCTAssertEqual(tasks[0].tags, [tag])
        tasks[0].$tags.remove(tag)
        XCTAssertEqual(tag.tasks, [tasks[1]])

        for step in steps.reversed() { plan.$steps.insert(step) }
        XCTAssertEqual(plan.steps, steps.reversed(), "an ordered to-many appends")
        plan.$steps.remove(steps[1])
        XCTAssertEqual(plan.steps, [steps[2], steps[0]])

        tasks[2].$project.remove(project)               // a to-one: cleared when it holds it
        XCTAssertNil(tasks[2].project)
        tasks[2].$project.insert(project)
        XCTAssertTrue(tasks[2].project === project)
        try context.save()

        let reader = container.newContext()
        let saved = try XCTUnwrap(reader.fetch(FetchRequest<GProject>()).first)
        XCTAssertEqual(Set(saved.tasks.map(\.title)), ["t0", "t2"])
        let savedTag = try XCTUnwrap(reader.fetch(FetchRequest<GTag>()).first)
        XCTAssertEqual(savedTag.tasks.map(\.title), ["t1"])
        let savedPlan = try XCTUnwrap(reader.fetch(FetchRequest<GPlan>()).first)
        XCTAssertEqual(savedPlan.steps.map(\.text), ["s2", "s0"])
    }

    func testALinkIsRefusedAsAnAssignmentIs() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        let context = container.newContext(), other = container.newContext()
        let project = GProject(context: context)
        project.name = "p"
        let stranger = GTask(context: other)
        stranger.title = "elsewhere"
        project.$tasks.insert(stranger)
        XCTAssertEqual(project.tasks, [])
        XCTAssertNil(stranger.project)
        project.$tasks.remove(stranger)
        expectError(try context.save(), .validation) { error in
            XCTAssertEqual(error.attribute, "tasks")
            XCTAssertTrue(error.message.contains("another context"), error.message)
        }
        let mine = GTask(context: context)
        mine.title = "here"
        project.$tasks.insert(mine)
        try context.save()
        XCTAssertEqual(project.tasks, [mine])
        context.reset()
        XCTAssertFalse(project.$tasks.contains(mine), "no context: nothing to read through")
        XCTAssertEqual(project.$tasks.count, 0)
    }

    /// Links and unlinks `count` objects one by one through `$`, in a one-to-many and a
    /// many-to-many, and returns the list elements the edits looked at or copied.
    private func visitsLinkingOneByOne(_ count: Int) throws -> Int {
        let context = try makeGraphContainer(TemporaryDirectory(), inMemory: true).newContext()
        let project = GProject(context: context)
        project.name = "p"
        let tag = GTag(context: context)
        tag.label = "g"
        let tasks = (0..<count).map { index -> GTask in
            let task = GTask(context: context)
            task.title = "t\(index)"
            return task
        }
        try context.save()
        XCTAssertEqual(project.tasks.count + tag.tasks.count, 0, "the lists are loaded")
        let before = context.graph.listEditVisits
        for task in tasks {
            project.$tasks.insert(task)
            tag.$tasks.insert(task)
        }
        XCTAssertEqual(project.$tasks.count, count)
        XCTAssertEqual(tag.$tasks.count, count)
        for task in tasks.shuffled() {
            project.$tasks.remove(task)
            tag.$tasks.remove(task)
        }
        let visits = context.graph.listEditVisits - before
        XCTAssertEqual(project.tasks.count + tag.tasks.count, 0)
        return visits
    }

    func testLinkingOneByOneCostsTheSameForEachLink() throws {
        let count = testSize("RelationshipLinksTests.linkOneByOne", full: 100_000, ci: 20_000)
        let small = try visitsLinkingOneByOne(count / 10), large = try visitsLinkingOneByOne(count)
        print("list elements visited: \(small) for \(count / 10) objects, \(large) for \(count)")
        // Linear: the lists' growth reallocations (at most twice the final length per buffer)
        // and one member index; a copy or a scan of the list per link would be count squared.
        XCTAssertLessThanOrEqual(large, 10 * count, "each link and unlink visits a bounded number of elements")
        XCTAssertLessThanOrEqual(large, 20 * small, "ten times the links cost about ten times as much, not a hundred")
    }

    /// Moves `count` saved tasks, one by one through `$`, out of the loaded list of the project
    /// that holds them all into another loaded one (the benchmark's `link-all`), and saves;
    /// returns the list elements the edits looked at or copied.
    private func visitsMovingOutOfALongList(_ count: Int) throws -> Int {
        let context = try makeGraphContainer(TemporaryDirectory(), inMemory: true).newContext()
        let holder = GProject(context: context), target = GProject(context: context)
        holder.name = "holder"
        target.name = "target"
        let tasks = (0..<count).map { index -> GTask in
            let task = GTask(context: context)
            task.title = "t\(index)"
            task.project = holder
            return task
        }
        try context.save()
        XCTAssertEqual(holder.tasks.count, count, "the long list is loaded")
        XCTAssertEqual(target.tasks.count, 0, "and the target's")
        let before = context.graph.listEditVisits
        for task in tasks.shuffled() { target.$tasks.insert(task) }
        let visits = context.graph.listEditVisits - before
        XCTAssertEqual(holder.$tasks.count, 0)
        XCTAssertEqual(target.$tasks.count, count)
        try context.save()
        XCTAssertTrue(tasks.allSatisfy { $0.project === target })
        return visits
    }

    func testMovingOutOfALongLoadedListCostsTheSameForEachLink() throws {
        let count = testSize("RelationshipLinksTests.moveOutOfLongList", full: 50_000, ci: 10_000)
        let small = try visitsMovingOutOfALongList(count / 10), large = try visitsMovingOutOfALongList(count)
        print("list elements visited moving out of a long list: \(small) for \(count / 10) objects, \(large) for \(count)")
        // Linear: one member index of the long list, and the target's growth; a scan or a copy
        // of the long list per link would be count squared.
        XCTAssertLessThanOrEqual(large, 10 * count, "each move visits a bounded number of elements")
        XCTAssertLessThanOrEqual(large, 20 * small, "ten times the moves cost about ten times as much, not a hundred")
    }

    /// The counter sees what an assignment costs: the plain form, `project.tasks.insert(task)`,
    /// compares the whole set each time.
    func testThePlainFormComparesTheWholeSetEachTime() throws {
        let context = try makeGraphContainer(TemporaryDirectory(), inMemory: true).newContext()
        let project = GProject(context: context)
        project.name = "p"
        let count = 2_000
        let before = context.graph.listEditVisits
        for index in 0..<count {
            let task = GTask(context: context)
            task.title = "t\(index)"
            project.tasks.insert(task)
        }
        XCTAssertEqual(project.tasks.count, count)
        XCTAssertGreaterThanOrEqual(context.graph.listEditVisits - before, count * (count - 1) / 2)
    }

    /// What each edit of an ordered to-many costs, as `Relationship`'s documentation and the
    /// Relationships article say, counted (elements visited, rows the save must write).
    func testOrderedToManyEditsCostWhatTheDocumentationSays() throws {
        let context = try makeGraphContainer(TemporaryDirectory(), inMemory: true).newContext()
        let plan = GPlan(context: context)
        plan.title = "p"
        let count = 1_000
        func makeSteps(_ prefix: String) -> [GStep] {
            (0..<count).map { index -> GStep in
                let step = GStep(context: context)
                step.text = "\(prefix)\(index)"
                return step
            }
        }
        let steps = makeSteps("s"), more = makeSteps("m")
        try context.save()
        XCTAssertEqual(plan.steps.count, 0, "the list is loaded")
        func stepsToWrite() -> Int { context.updatedObjects.filter { $0 is GStep }.count }

        // `plan.steps.append(step)`: no copy, but one pass of identity comparisons (is the list
        // held the start of the new one?) per append: count squared over the loop.
        var before = context.graph.listEditVisits
        for step in steps { plan.steps.append(step) }
        XCTAssertGreaterThanOrEqual(context.graph.listEditVisits - before, count * (count - 1) / 2)
        XCTAssertEqual(stepsToWrite(), count)
        try context.save()

        // `plan.$steps.insert(step)`: appends, a bounded number of elements each.
        before = context.graph.listEditVisits
        for step in more { plan.$steps.insert(step) }
        XCTAssertLessThanOrEqual(context.graph.listEditVisits - before, 10 * count)
        XCTAssertEqual(stepsToWrite(), count)
        try context.save()

        // `plan.steps.insert(step, at: 0)`: the whole list is assigned, and every step after the
        // new one takes the next position: the save writes all of them.
        let first = GStep(context: context)
        first.text = "first"
        plan.steps.insert(first, at: 0)
        XCTAssertEqual(stepsToWrite(), 2 * count)
        try context.save()

        // A reorder is such an assignment too: the steps whose position changed are written
        // (a swap two, a move every step between the two places).
        plan.steps.swapAt(1, 100)
        XCTAssertEqual(stepsToWrite(), 2)
        try context.save()
        var reordered = plan.steps
        reordered.insert(reordered.remove(at: 1), at: 100)
        plan.steps = reordered
        XCTAssertEqual(stepsToWrite(), 100)
        try context.save()

        // `plan.$steps.remove(step)`: the others keep their stored positions (a gap is left):
        // the save writes the one step that left.
        plan.$steps.remove(steps[500])
        XCTAssertEqual(stepsToWrite(), 1)
        try context.save()
        XCTAssertEqual(plan.steps.count, 2 * count)
        XCTAssertEqual(plan.steps.first?.text, "first")
    }
}
