import Foundation
import PersistKit
import TaskModel
import XCTest

/// The task controller's API: add, update, complete, remove, look up; every change saved.
final class TaskStoreTests: XCTestCase {
    func testAddSavesATaskWithTrimmedNameAndCreationDate() throws {
        let fixture = try TaskStoreFixture()
        let before = Date()
        let task = try fixture.store.add(name: "  Buy milk \n", notes: "Oat milk", due: isoDate("2026-11-25T00:00:00.000Z"))
        XCTAssertEqual(task.name, "Buy milk")
        XCTAssertEqual(task.notes, "Oat milk")
        XCTAssertEqual(task.due, isoDate("2026-11-25T00:00:00.000Z"))
        XCTAssertFalse(task.isComplete)
        XCTAssertFalse(task.isInserted, "add saves")
        XCTAssertNotNil(task.referenceNumber)
        XCTAssertEqual(task.reference, "#\(task.referenceNumber ?? -1)")
        XCTAssertGreaterThanOrEqual(task.createdAt.timeIntervalSince1970, before.timeIntervalSince1970 - 0.001)
        XCTAssertLessThanOrEqual(task.createdAt.timeIntervalSince1970, Date().timeIntervalSince1970 + 0.001)

        let reopened = try fixture.reopen()
        let read = try reopened.task(withReference: try XCTUnwrap(task.referenceNumber))
        XCTAssertEqual(read.name, "Buy milk")
        XCTAssertEqual(read.notes, "Oat milk")
        XCTAssertEqual(read.createdAt, task.createdAt)
    }

    func testBlankNotesAreStoredAsNil() throws {
        let fixture = try TaskStoreFixture()
        let task = try fixture.store.add(name: "Call mom", notes: "  \n ", due: nil)
        XCTAssertNil(task.notes)
    }

    func testUpdateReplacesNameNotesAndDue() throws {
        let fixture = try TaskStoreFixture()
        let task = try fixture.store.add(name: "Call mom", notes: "About the trip", due: nil)
        let due = isoDate("2026-12-01T00:00:00.000Z")
        try fixture.store.update(task, name: "Call mom back", notes: nil, due: due)
        XCTAssertFalse(fixture.store.context.hasChanges, "update saves")

        let read = try fixture.reopen().task(withReference: try XCTUnwrap(task.referenceNumber))
        XCTAssertEqual(read.name, "Call mom back")
        XCTAssertNil(read.notes)
        XCTAssertEqual(read.due, due)
    }

    func testToggleAndSetIsComplete() throws {
        let fixture = try TaskStoreFixture()
        let task = try fixture.store.add(name: "Water the plants")
        try fixture.store.toggleIsComplete(task)
        XCTAssertTrue(task.isComplete)
        XCTAssertTrue(try fixture.reopen().task(withReference: try XCTUnwrap(task.referenceNumber)).isComplete)
        try fixture.store.toggleIsComplete(task)
        XCTAssertFalse(task.isComplete)
        try fixture.store.setIsComplete(task, true)
        try fixture.store.setIsComplete(task, true)
        XCTAssertTrue(try fixture.reopen().task(withReference: try XCTUnwrap(task.referenceNumber)).isComplete)
    }

    func testRemoveDeletesAndReferencesAreNotReused() throws {
        let fixture = try TaskStoreFixture()
        let first = try fixture.store.add(name: "One")
        let second = try fixture.store.add(name: "Two")
        let firstReference = try XCTUnwrap(first.referenceNumber)
        try fixture.store.remove(first)
        XCTAssertEqual(try fixture.store.tasks().names, ["Two"])
        XCTAssertThrowsError(try fixture.store.task(withReference: firstReference)) { error in
            XCTAssertEqual((error as? PersistError)?.code, .objectNotFound)
            XCTAssertEqual((error as? PersistError)?.message, "no task #\(firstReference)")
        }
        let third = try fixture.store.add(name: "Three")
        XCTAssertGreaterThan(try XCTUnwrap(third.referenceNumber), try XCTUnwrap(second.referenceNumber))
        XCTAssertEqual(try fixture.reopen().tasks().names, ["Two", "Three"])
    }

    func testRemoveSeveralIsOneSave() throws {
        let fixture = try TaskStoreFixture()
        let tasks = try ["A", "B", "C"].map { try fixture.store.add(name: $0) }
        try fixture.store.remove([tasks[0], tasks[2]])
        XCTAssertEqual(try fixture.reopen().tasks().names, ["B"])
    }

    func testRemovedTaskCannotBeChanged() throws {
        let fixture = try TaskStoreFixture()
        let task = try fixture.store.add(name: "Gone soon")
        try fixture.store.remove(task)
        XCTAssertThrowsError(try fixture.store.toggleIsComplete(task)) { error in
            XCTAssertEqual((error as? PersistError)?.code, .invalidObject)
        }
        XCTAssertThrowsError(try fixture.store.remove(task))
    }

    func testUnknownReferencesAreNotFound() throws {
        let fixture = try TaskStoreFixture()
        for number: Int64 in [42, 0, -1, Int64.max] {
            XCTAssertThrowsError(try fixture.store.task(withReference: number)) { error in
                XCTAssertEqual((error as? PersistError)?.code, .objectNotFound, "#\(number)")
            }
        }
    }

    /// A reference is a primary key, looked up as one: whatever the store's identifier looks
    /// like (one written by another program need not be a UUID), and with no URI in between.
    func testReferenceLookupIsByPrimaryKeyWhateverTheStoreIdentifier() throws {
        let fixture = try TaskStoreFixture()
        let number = try XCTUnwrap(try fixture.store.add(name: "Kept").referenceNumber)
        for identifier in ["Tasks backup 2026", "tasks/backup"] {
            try setStoreIdentifier(identifier, of: fixture.url)
            let reopened = try fixture.reopen()
            XCTAssertEqual(reopened.container.storeIdentifier, identifier)
            XCTAssertEqual(try reopened.task(withReference: number).name, "Kept", identifier)
            XCTAssertThrowsError(try reopened.task(withReference: number + 1)) { error in
                XCTAssertEqual((error as? PersistError)?.message, "no task #\(number + 1)")
            }
        }
    }

    /// Rewrites the store identifier in a store's metadata with python3's sqlite3 module;
    /// skips the test where python3 is missing.
    private func setStoreIdentifier(_ identifier: String, of url: URL) throws {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.execute("update _persistkit_metadata set value = ? where key = 'storeIdentifier'", (sys.argv[2],))
            c.commit()
            """, url.path, identifier]
        try python.run()
        python.waitUntilExit()
        try XCTSkipIf(python.terminationStatus != 0, "python3 with sqlite3 is needed to edit a store's metadata")
    }

    func testTaskOfAnotherStoreIsRefused() throws {
        let one = try TaskStoreFixture()
        let other = try TaskStoreFixture()
        let task = try one.store.add(name: "Mine")
        XCTAssertThrowsError(try other.store.toggleIsComplete(task)) { error in
            XCTAssertEqual((error as? PersistError)?.code, .invalidObject)
        }
        XCTAssertEqual(try other.store.count(), 0)
    }

    func testChangesMadeInAnotherStoreInstanceAreSeen() throws {
        let fixture = try TaskStoreFixture()
        let other = try fixture.reopen()
        let task = try other.add(name: "From elsewhere")
        XCTAssertEqual(try fixture.store.tasks().names, ["From elsewhere"])
        try other.toggleIsComplete(task)
        XCTAssertEqual(try fixture.store.tasks(.completed).names, ["From elsewhere"])
    }
}
