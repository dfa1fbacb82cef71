import Foundation
import PersistKit
import PersistKitTestSupport
@testable import PersistKitSync
import XCTest

/// How concurrent offline edits meet: per key, the newest by hybrid clock; a delete over an
/// update (by default); uniqueness collisions merged; a to-many's links from both sides kept.
final class ConflictTests: SyncTestCase {
    /// Two stores that have synced one note; returns them with their engines and the note's title.
    private func twoStoresWithANote() async throws -> (PersistentContainer, SyncEngine, PersistentContainer, SyncEngine) {
        let a = try makeContainer("a"), b = try makeContainer("b")
        let engineA = try engine(a), engineB = try engine(b)
        let context = a.newContext()
        let note = SNote(context: context)
        note.title = "first"
        note.count = 1
        try context.save()
        try await engineA.sync()
        try await engineB.sync()
        return (a, engineA, b, engineB)
    }

    /// Contexts kept for the test's duration (an object's context is weak).
    private var contexts: [ManagedObjectContext] = []

    private func onlyNote(_ container: PersistentContainer) throws -> SNote {
        let context = container.newContext()
        contexts.append(context)
        let notes = try context.fetch(FetchRequest<SNote>())
        XCTAssertEqual(notes.count, 1)
        return try XCTUnwrap(notes.first)
    }

    func testConcurrentEditsOfDifferentKeysBothSurvive() async throws {
        let (a, engineA, b, engineB) = try await twoStoresWithANote()
        let onA = try onlyNote(a), onB = try onlyNote(b)
        onA.title = "title from A"
        try onA.managedObjectContext?.save()
        onB.count = 42
        try onB.managedObjectContext?.save()
        try await engineA.sync()
        try await engineB.sync()
        try await engineA.sync()
        for container in [a, b] {
            let note = try onlyNote(container)
            XCTAssertEqual(note.title, "title from A")
            XCTAssertEqual(note.count, 42)
        }
    }

    func testTheLaterEditOfAKeyWins() async throws {
        let (a, engineA, b, engineB) = try await twoStoresWithANote()
        let onA = try onlyNote(a)
        onA.title = "earlier, from A"
        try onA.managedObjectContext?.save()
        usleep(5_000)
        let onB = try onlyNote(b)
        onB.title = "later, from B"
        try onB.managedObjectContext?.save()
        // B pushes first, A second: the later edit still wins on both.
        try await engineB.sync()
        let report = try await engineA.sync()
        XCTAssertGreaterThan(report.conflictsResolved, 0, "A's older title lost on the server")
        try await engineB.sync()
        XCTAssertEqual(try onlyNote(a).title, "later, from B")
        XCTAssertEqual(try onlyNote(b).title, "later, from B")
    }

    /// A's clock is an hour fast. B edits after seeing A's edit: B's edit wins, as it must
    /// (it was made knowing A's); by the wall clock A's would have won.
    func testAClientWhoseClockIsAnHourFastStillConverges() async throws {
        let a = try makeContainer("a"), b = try makeContainer("b")
        let engineA = try engine(a) { $0.clock = { Date().addingTimeInterval(3_600) } }
        let engineB = try engine(b)
        let context = a.newContext()
        let note = SNote(context: context)
        note.title = "A, an hour fast"
        try context.save()
        try await engineA.sync()
        try await engineB.sync()
        let onB = try onlyNote(b)
        XCTAssertEqual(onB.title, "A, an hour fast")
        onB.title = "B, after reading A's"
        try onB.managedObjectContext?.save()
        try await engineB.sync()
        try await engineA.sync()
        XCTAssertEqual(try onlyNote(a).title, "B, after reading A's")
        XCTAssertEqual(try onlyNote(b).title, "B, after reading A's")
        // And A, after reading B's, wins again.
        let onA = try onlyNote(a)
        onA.title = "A again"
        try onA.managedObjectContext?.save()
        try await engineA.sync()
        try await engineB.sync()
        XCTAssertEqual(try onlyNote(b).title, "A again")
    }

    func testADeleteWinsOverAConcurrentUpdate() async throws {
        let (a, engineA, b, engineB) = try await twoStoresWithANote()
        let onA = try onlyNote(a)
        onA.managedObjectContext?.delete(onA)
        try onA.managedObjectContext?.save()
        usleep(5_000)
        let onB = try onlyNote(b)
        onB.title = "edited after the delete"
        try onB.managedObjectContext?.save()
        try await engineA.sync()
        try await engineB.sync()
        try await engineA.sync()
        XCTAssertEqual(try a.newContext().count(for: FetchRequest<SNote>()), 0)
        XCTAssertEqual(try b.newContext().count(for: FetchRequest<SNote>()), 0)
    }

    func testUnderLastWriterWinsALaterUpdateBringsTheObjectBack() async throws {
        let a = try makeContainer("a"), b = try makeContainer("b")
        let engineA = try engine(a) { $0.deletePolicy = .lastWriterWins }
        let engineB = try engine(b) { $0.deletePolicy = .lastWriterWins }
        let context = a.newContext()
        let note = SNote(context: context)
        note.title = "first"
        try context.save()
        try await engineA.sync()
        try await engineB.sync()
        let onA = try onlyNote(a)
        onA.managedObjectContext?.delete(onA)
        try onA.managedObjectContext?.save()
        usleep(5_000)
        let onB = try onlyNote(b)
        onB.title = "updated after the delete"
        try onB.managedObjectContext?.save()
        try await engineA.sync()
        try await engineB.sync()
        try await engineA.sync()
        XCTAssertEqual(try onlyNote(a).title, "updated after the delete")
        XCTAssertEqual(try onlyNote(b).title, "updated after the delete")
        // A store of the space with the other policy is refused.
        let c = try makeContainer("c")
        await XCTAssertThrowsErrorAsync(try await self.engine(c).sync()) { error in
            XCTAssertEqual((error as? PersistError)?.code, .sync)
            XCTAssertTrue("\(error)".contains("lastWriterWins"), "\(error)")
        }
    }

    /// Two stores each make tag "urgent" offline and put tasks in it: after syncing there is
    /// one "urgent", holding both stores' notes, the same object on both.
    func testUniquenessCollisionsMergeIntoOneObject() async throws {
        let a = try makeContainer("a"), b = try makeContainer("b")
        let engineA = try engine(a), engineB = try engine(b)
        try saveLabelledNote(in: a, label: "urgent", title: "from A")
        try saveLabelledNote(in: b, label: "urgent", title: "from B")
        try await engineA.sync()
        try await engineB.sync()
        try await engineA.sync()
        for container in [a, b] {
            let context = container.newContext()
            let labels = try context.fetch(FetchRequest<SLabel>())
            XCTAssertEqual(labels.map(\.name), ["urgent"])
            XCTAssertEqual(Set(labels.first?.notes.map(\.title) ?? []), ["from A", "from B"])
        }
        try XCTAssertEqual(GraphSnapshot.of(a), GraphSnapshot.of(b))
        // A store that had not heard of the merge still links to the winner.
        let context = b.newContext()
        let note = SNote(context: context)
        note.title = "later on B"
        note.labels = Set(try context.fetch(FetchRequest<SLabel>()))
        try context.save()
        try await engineB.sync()
        try await engineA.sync()
        try XCTAssertEqual(GraphSnapshot.of(a), GraphSnapshot.of(b))
        let onA = a.newContext()
        XCTAssertEqual(try onA.fetch(FetchRequest<SLabel>()).first?.notes.count, 3)
    }

    /// With the name matched without regard to case, "Urgent" on A and "urgent" on B are one
    /// label after syncing, holding both notes; without it they stay two, as the store's own
    /// unique index (exact) has them.
    func testUniquenessIgnoringCaseMergesNamesThatDifferInCaseOnly() async throws {
        for ignoringCase in [true, false] {
            let space = ignoringCase ? "folded" : "exact"
            let a = try makeContainer("a-" + space), b = try makeContainer("b-" + space)
            let configure: (inout SyncConfiguration) -> Void = { if ignoringCase { $0.uniqueAttributesIgnoringCase = ["SLabel": ["name"]] } }
            let engineA = try engine(a, space: space, configure: configure), engineB = try engine(b, space: space, configure: configure)
            try saveLabelledNote(in: a, label: "Urgent", title: "from A")
            try saveLabelledNote(in: b, label: "urgent", title: "from B")
            try await engineA.sync()
            try await engineB.sync()
            try await engineA.sync()
            for container in [a, b] {
                let context = container.newContext()
                let labels = try context.fetch(FetchRequest<SLabel>())
                if ignoringCase {
                    XCTAssertEqual(labels.count, 1, "one label: \(labels.map(\.name))")
                    XCTAssertEqual(Set(labels.first?.notes.map(\.title) ?? []), ["from A", "from B"])
                } else {
                    XCTAssertEqual(Set(labels.map(\.name)), ["Urgent", "urgent"])
                }
            }
            try XCTAssertEqual(GraphSnapshot.of(a), GraphSnapshot.of(b))
        }
    }

    /// Saves a new label named `label` holding a new note titled `title`.
    private func saveLabelledNote(in container: PersistentContainer, label name: String, title: String) throws {
        let context = container.newContext()
        let label = SLabel(context: context)
        label.name = name
        let note = SNote(context: context)
        note.title = title
        note.labels = [label]
        try context.save()
    }

    func testAToManyEditedOnBothSidesKeepsBothSidesLinks() async throws {
        let a = try makeContainer("a"), b = try makeContainer("b")
        let engineA = try engine(a), engineB = try engine(b)
        let context = a.newContext()
        let note = SNote(context: context)
        note.title = "labelled"
        for name in ["one", "two", "three"] {
            let label = SLabel(context: context)
            label.name = name
        }
        try context.save()
        try await engineA.sync()
        try await engineB.sync()
        func label(_ name: String, in context: ManagedObjectContext) throws -> SLabel {
            try XCTUnwrap(try context.fetch(FetchRequest<SLabel>()).first { $0.name == name })
        }
        let onA = try onlyNote(a), onB = try onlyNote(b)
        onA.labels.insert(try label("one", in: try XCTUnwrap(onA.managedObjectContext)))
        onA.labels.insert(try label("two", in: try XCTUnwrap(onA.managedObjectContext)))
        try onA.managedObjectContext?.save()
        // B links from the other side.
        let bContext = try XCTUnwrap(onB.managedObjectContext)
        try label("three", in: bContext).notes.insert(onB)
        try bContext.save()
        try await engineA.sync()
        try await engineB.sync()
        try await engineA.sync()
        XCTAssertEqual(Set(try onlyNote(a).labels.map(\.name)), ["one", "two", "three"])
        XCTAssertEqual(Set(try onlyNote(b).labels.map(\.name)), ["one", "two", "three"])
        // A removes one while B removes another: both go.
        let again = try onlyNote(a)
        again.labels = again.labels.filter { $0.name != "one" }
        try again.managedObjectContext?.save()
        let againB = try onlyNote(b)
        againB.labels = againB.labels.filter { $0.name != "two" }
        try againB.managedObjectContext?.save()
        try await engineA.sync()
        try await engineB.sync()
        try await engineA.sync()
        XCTAssertEqual(Set(try onlyNote(a).labels.map(\.name)), ["three"])
        XCTAssertEqual(Set(try onlyNote(b).labels.map(\.name)), ["three"])
    }

    func testOrderedMovesOnBothStoresConverge() async throws {
        let a = try makeContainer("a"), b = try makeContainer("b")
        let engineA = try engine(a), engineB = try engine(b)
        let context = a.newContext()
        let folder = SFolder(context: context)
        folder.name = "list"
        for index in 0..<5 {
            let note = SNote(context: context)
            note.title = "n\(index)"
            note.folder = folder
            folder.pinned.append(note)
        }
        try context.save()
        try await engineA.sync()
        try await engineB.sync()
        func folderOf(_ container: PersistentContainer) throws -> SFolder {
            let context = container.newContext()
            contexts.append(context)
            return try XCTUnwrap(try context.fetch(FetchRequest<SFolder>()).first)
        }
        let onA = try folderOf(a), onB = try folderOf(b)
        // A moves n4 to the front; B moves n0 to the end and pins in reverse.
        var notesA = onA.notes
        notesA.insert(notesA.removeLast(), at: 0)
        onA.notes = notesA
        try onA.managedObjectContext?.save()
        var notesB = onB.notes
        notesB.append(notesB.removeFirst())
        onB.notes = notesB
        onB.pinned = onB.pinned.reversed()
        try onB.managedObjectContext?.save()
        try await engineA.sync()
        try await engineB.sync()
        try await engineA.sync()
        let finalA = try folderOf(a), finalB = try folderOf(b)
        XCTAssertEqual(finalA.notes.map(\.title), finalB.notes.map(\.title))
        XCTAssertEqual(finalA.notes.map(\.title), ["n4", "n1", "n2", "n3", "n0"], "both moves survive")
        XCTAssertEqual(finalA.pinned.map(\.title), ["n4", "n3", "n2", "n1", "n0"])
        XCTAssertEqual(finalB.pinned.map(\.title), ["n4", "n3", "n2", "n1", "n0"])
        try XCTAssertEqual(GraphSnapshot.of(a), GraphSnapshot.of(b))
    }

    /// A reorder moves places in the list, it does not set the moved notes' folder again: a later
    /// reorder on B must not pull back a note that A took out of the folder before it.
    func testAReorderDoesNotUndoAnEarlierMoveOutOfTheList() async throws {
        let a = try makeContainer("a"), b = try makeContainer("b")
        let engineA = try engine(a), engineB = try engine(b)
        let context = a.newContext()
        let folder = SFolder(context: context)
        folder.name = "list"
        for index in 0..<3 {
            let note = SNote(context: context)
            note.title = "n\(index)"
            note.folder = folder
        }
        try context.save()
        try await engineA.sync()
        try await engineB.sync()
        func folderOf(_ container: PersistentContainer) throws -> SFolder {
            let context = container.newContext()
            contexts.append(context)
            return try XCTUnwrap(try context.fetch(FetchRequest<SFolder>()).first)
        }
        // A takes n0 out of the folder; B, not having heard, later moves n0 to the end.
        let onA = try folderOf(a)
        let n0 = try XCTUnwrap(onA.notes.first { $0.title == "n0" })
        n0.folder = nil
        try onA.managedObjectContext?.save()
        try await engineA.sync()
        usleep(5_000)
        let onB = try folderOf(b)
        var notes = onB.notes
        notes.append(notes.removeFirst())
        onB.notes = notes
        try onB.managedObjectContext?.save()
        try await engineB.sync()
        try await engineA.sync()
        for container in [a, b] {
            XCTAssertEqual(try folderOf(container).notes.map(\.title), ["n1", "n2"], "A's move out stands")
        }
        try XCTAssertEqual(GraphSnapshot.of(a), GraphSnapshot.of(b))
    }
}

/// `XCTAssertThrowsError` for async expressions.
func XCTAssertThrowsErrorAsync<T>(_ expression: @autoclosure () async throws -> T, file: StaticString = #filePath, line: UInt = #line,
                                  _ handler: (Error) -> Void = { _ in }) async {
    do {
        _ = try await expression()
        XCTFail("no error was thrown", file: file, line: line)
    } catch {
        handler(error)
    }
}
