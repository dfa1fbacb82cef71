import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A context reads an object again (a fetch finding a newer row, or a refresh) while one of its
/// to-many lists was changed and changed back here: the list is let go, and the store's list,
/// which another context may have changed meanwhile, shows from then on. The controllers over
/// the list's owner and over its members hear that difference exactly.
final class FetchedResultsControllerRefreshTests: XCTestCase {
    private var directory = TemporaryDirectory()

    override func setUp() { directory = TemporaryDirectory() }

    /// A saved graph: tasks t1, t2, t3; tag "red" on t1, tag "blue" on none.
    private func makeGraph() throws -> PersistentContainer {
        let container = try makeGraphContainer(directory)
        let context = container.newContext()
        let tasks = ["t1", "t2", "t3"].map { title -> GTask in
            let task = GTask(context: context)
            task.title = title
            return task
        }
        for label in ["red", "blue"] {
            let tag = GTag(context: context)
            tag.label = label
            if label == "red" { tag.tasks = [tasks[0]] }
        }
        try context.save()
        return container
    }

    private func tag(_ label: String, in context: ManagedObjectContext) throws -> GTag {
        try XCTUnwrap(context.fetch(FetchRequest<GTag>(predicate: \.label == label)).first)
    }

    private func task(_ title: String, in context: ManagedObjectContext) throws -> GTask {
        try XCTUnwrap(context.fetch(FetchRequest<GTask>(predicate: \.title == title)).first)
    }

    /// The watchers of `context`: tasks with a tag, tags with two tasks or more.
    private func watchers(_ context: ManagedObjectContext) throws -> (tagged: ResultsWatcher<GTask>, busy: ResultsWatcher<GTag>) {
        (try ResultsWatcher(FetchedResultsController(fetchRequest: FetchRequest<GTask>(
            predicate: try .init(format: "tags.@count >= 1"), sortBy: [FetchSortDescriptor(\.title)]), context: context)),
         try ResultsWatcher(FetchedResultsController(fetchRequest: FetchRequest<GTag>(
            predicate: try .init(format: "tasks.@count >= 2"), sortBy: [FetchSortDescriptor(\.label)]), context: context)))
    }

    /// Both controllers agree with a fresh fetch, their change sets replay to their rows, and
    /// `titles` and `labels` are what they show.
    private func assertShows(_ titles: [String], _ labels: [String], _ watchers: (tagged: ResultsWatcher<GTask>, busy: ResultsWatcher<GTag>),
                             in context: ManagedObjectContext, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(watchers.tagged.controller.fetchedObjects.map(\.title), titles, file: file, line: line)
        XCTAssertEqual(watchers.busy.controller.fetchedObjects.map(\.label), labels, file: file, line: line)
        XCTAssertEqual(try context.fetch(watchers.tagged.controller.fetchRequest).map(\.objectID),
                       watchers.tagged.current.flatMap { $0 }, "tasks: controller vs a fresh fetch", file: file, line: line)
        XCTAssertEqual(try context.fetch(watchers.busy.controller.fetchRequest).map(\.objectID),
                       watchers.busy.current.flatMap { $0 }, "tags: controller vs a fresh fetch", file: file, line: line)
        XCTAssertEqual(watchers.tagged.mirror, watchers.tagged.current, "tasks: replayed change sets", file: file, line: line)
        XCTAssertEqual(watchers.busy.mirror, watchers.busy.current, "tags: replayed change sets", file: file, line: line)
        XCTAssertEqual(watchers.tagged.problems + watchers.busy.problems, [], file: file, line: line)
    }

    /// `red.tasks` gains t2 and loses it again here (changed back); another context links t3
    /// to red and renames red meanwhile. A fetch reads red's newer row and lets the changed-back
    /// list go: t3 joins the tagged tasks and red the busy tags, and the controllers say so.
    func testAFetchLettingGoOfAListChangedBackReportsAnotherContextsLinks() throws {
        let container = try makeGraph()
        let context = container.newContext()
        let watchers = try watchers(context)
        try assertShows(["t1"], [], watchers, in: context)
        let red = try tag("red", in: context), t2 = try task("t2", in: context)
        red.tasks.insert(t2)

        let other = container.newContext()
        let theirRed = try tag("red", in: other)
        theirRed.tasks.insert(try task("t3", in: other))
        theirRed.label = "crimson"
        try other.save()
        context.processPendingChanges()   // red has local changes: it keeps them, and its row
        red.tasks.remove(t2)              // changed back: nothing local any more
        _ = try context.fetch(FetchRequest<GTag>())   // red's newer row: the list changed back is let go
        context.processPendingChanges()

        XCTAssertEqual(red.label, "crimson")
        XCTAssertEqual(red.tasks.map(\.title).sorted(), ["t1", "t3"])
        try assertShows(["t1", "t3"], ["crimson"], watchers, in: context)
    }

    /// The same from the member's side: t2's `tags` gains and loses blue here; another context
    /// tags t2 red and retitles it. A fetch reads t2 again: t2 joins the tagged tasks, red (two
    /// tasks now) the busy tags.
    func testAFetchLettingGoOfAMembersListChangedBackReportsAnotherContextsLinks() throws {
        let container = try makeGraph()
        let context = container.newContext()
        let watchers = try watchers(context)
        let blue = try tag("blue", in: context), t2 = try task("t2", in: context)
        t2.tags.insert(blue)

        let other = container.newContext()
        let theirT2 = try task("t2", in: other)
        theirT2.tags.insert(try tag("red", in: other))
        theirT2.title = "t2b"
        try other.save()
        context.processPendingChanges()
        t2.tags.remove(blue)
        _ = try context.fetch(FetchRequest<GTask>())
        context.processPendingChanges()

        XCTAssertEqual(t2.title, "t2b")
        XCTAssertEqual(t2.tags.map(\.label), ["red"])
        try assertShows(["t1", "t2b"], ["red"], watchers, in: context)
    }

    /// `refresh(_:mergeChanges: true)` of an object whose list was changed back reads it again
    /// the same way, and reports the same.
    func testRefreshKeepingChangesOfAListChangedBackReportsAnotherContextsLinks() throws {
        let container = try makeGraph()
        let context = container.newContext()
        let watchers = try watchers(context)
        let red = try tag("red", in: context), t2 = try task("t2", in: context)
        red.tasks.insert(t2)

        let other = container.newContext()
        try tag("red", in: other).tasks.insert(try task("t3", in: other))
        try other.save()
        context.processPendingChanges()
        red.tasks.remove(t2)
        context.refresh(red, mergeChanges: true)
        context.processPendingChanges()

        XCTAssertEqual(red.tasks.map(\.title).sorted(), ["t1", "t3"])
        try assertShows(["t1", "t3"], ["red"], watchers, in: context)
    }

    /// Lists let go and queued for comparison, then the context reset before the notice: the
    /// queue goes with everything else, and observers hear one "refetch everything".
    func testAResetDropsTheListsQueuedForComparison() throws {
        let container = try makeGraph()
        let context = container.newContext()
        let watchers = try watchers(context)
        let red = try tag("red", in: context), t2 = try task("t2", in: context)
        red.tasks.insert(t2)
        let other = container.newContext()
        try tag("red", in: other).tasks.insert(try task("t3", in: other))
        try other.save()
        context.processPendingChanges()
        red.tasks.remove(t2)
        context.refresh(red, mergeChanges: true)
        context.reset()
        XCTAssertNil(red.managedObjectContext)
        XCTAssertEqual(watchers.tagged.invalidations, 1)
        try assertShows(["t1", "t3"], ["red"], watchers, in: context)
    }

    /// The object whose list was let go is deleted before the notice (here, or by another
    /// context): the tasks it held in the controllers' eyes lose it, t1 too, which another
    /// context had unlinked meanwhile.
    func testAnObjectDeletedAfterItsListWasLetGoReleasesItsTasks() throws {
        for deletesHere in [true, false] {
            directory = TemporaryDirectory()
            let container = try makeGraph()
            let context = container.newContext()
            let watchers = try watchers(context)
            let red = try tag("red", in: context), t2 = try task("t2", in: context)
            red.tasks.insert(t2)
            let other = container.newContext()
            let theirRed = try tag("red", in: other)
            theirRed.tasks.insert(try task("t3", in: other))
            theirRed.tasks.remove(try task("t1", in: other))
            theirRed.label = "crimson"
            try other.save()
            context.processPendingChanges()
            red.tasks.remove(t2)
            _ = try context.fetch(FetchRequest<GTag>())   // lets red's list go, queued
            if deletesHere {
                context.delete(red)
            } else {
                other.delete(theirRed)
                try other.save()
            }
            context.processPendingChanges()
            XCTAssertTrue(red.isDeleted)
            try assertShows([], [], watchers, in: context)
        }
    }
}
