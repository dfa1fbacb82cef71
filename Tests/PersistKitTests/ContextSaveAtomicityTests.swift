import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

final class ContextSaveAtomicityTests: XCTestCase {
    /// A snapshot of what a context holds, to compare before and after a failed save.
    private func snapshot(_ context: ManagedObjectContext) -> String {
        let inserted = context.insertedObjects.map { "\($0.objectID) \($0)" }
        let updated = context.updatedObjects.map { "\($0.objectID) \($0) \($0.changedValues().keys.sorted())" }
        let deleted = context.deletedObjects.map { "\($0.objectID)" }
        return "\(inserted)|\(updated)|\(deleted)|\(context.hasChanges)"
    }

    private func storeContents(_ container: PersistentContainer) throws -> [String] {
        let context = container.newContext()
        return try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.name)])).map { "\($0.name) \($0.notes ?? "-") \($0.isComplete)" }
            + (try context.fetch(FetchRequest<Account>(sortBy: [FetchSortDescriptor(\.email)])).map(\.email))
    }

    func testValidationFailureReportsEveryProblemAndChangesNothing() {
        forEachStore { container, _ in
            let context = container.newContext()
            let kept = TestTask(context: context)
            kept.name = "kept"
            try context.save()

            kept.notes = "edited"
            let missing = TestTask(context: context)          // name never set
            missing.notes = "no name"
            let nan = TestTask(context: context)
            nan.name = "nan"
            nan.estimate = .nan
            let blank = Checked(context: context)
            blank.title = "   "
            let before = snapshot(context)
            let stored = try storeContents(container)

            XCTAssertThrowsError(try context.save()) { error in
                guard let error = error as? PersistError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.code, .validation)
                XCTAssertEqual(error.problems.count, 3, "\(error.problems)")
                XCTAssertTrue(error.problems.contains { $0.contains("Task.name") && $0.contains("required") }, "\(error)")
                XCTAssertTrue(error.problems.contains { $0.contains("NaN") }, "\(error)")
                XCTAssertTrue(error.problems.contains { $0.contains("blank") }, "\(error)")
                XCTAssertEqual(Set(error.objectIDs), Set([missing.objectID, nan.objectID, blank.objectID]))
            }
            XCTAssertEqual(snapshot(context), before)
            XCTAssertEqual(try storeContents(container), stored)

            missing.name = "now named"
            nan.estimate = 1
            blank.title = "fine"
            try context.save()
            XCTAssertEqual(try storeContents(container).count, 3)
        }
    }

    func testConstraintFailureRollsBackTheWholeSave() {
        forEachStore { container, _ in
            let context = container.newContext()
            let existing = Account(context: context)
            existing.email = "a@example.com"
            try context.save()

            let task = TestTask(context: context)
            task.name = "written first in the same save"
            existing.displayName = "changed"
            let duplicate = Account(context: context)
            duplicate.email = "a@example.com"
            let before = snapshot(context)
            let stored = try storeContents(container)
            XCTAssertThrowsError(try context.save()) { error in
                XCTAssertEqual((error as? PersistError)?.code, .constraintViolation, "\(error)")
                // Found by the uniqueness check before anything is written, naming both objects.
                XCTAssertEqual((error as? PersistError)?.objectIDs, [duplicate.objectID, existing.objectID])
            }
            XCTAssertEqual(snapshot(context), before)
            XCTAssertTrue(task.objectID.isTemporary)
            XCTAssertEqual(try storeContents(container), stored)
            duplicate.email = "b@example.com"
            try context.save()
            XCTAssertFalse(task.objectID.isTemporary)
        }
    }

    func testUniquenessIsCheckedAgainstPendingInserts() {
        forEachStore { container, _ in
            let context = container.newContext()
            let a = Account(context: context), b = Account(context: context)
            a.email = "same@example.com"
            b.email = "same@example.com"
            XCTAssertThrowsError(try context.save()) { XCTAssertEqual(($0 as? PersistError)?.code, .constraintViolation) }
            XCTAssertEqual(context.insertedObjects.count, 2)
            XCTAssertEqual(try container.newContext().count(for: FetchRequest<Account>()), 0)
        }
    }

    func testDeleteRollbackResetRefresh() {
        forEachStore { container, _ in
            let context = container.newContext()
            let task = TestTask(context: context)
            task.name = "one"
            try context.save()
            context.delete(task)
            XCTAssertTrue(task.isDeleted)
            XCTAssertEqual(try context.fetch(FetchRequest<TestTask>()).count, 0, "pending deletions are gone from fetches")
            context.rollback()
            XCTAssertFalse(task.isDeleted)
            XCTAssertEqual(try context.fetch(FetchRequest<TestTask>()).count, 1)

            task.name = "changed"
            let added = TestTask(context: context)
            added.name = "added"
            context.rollback()
            XCTAssertEqual(task.name, "one")
            XCTAssertFalse(context.hasChanges)
            XCTAssertTrue(added.isDeleted)

            let other = container.newContext()
            let theirs = try XCTUnwrap(try other.existingObject(with: task.objectID) as? TestTask)
            theirs.notes = "from the other context"
            try other.save()
            task.isComplete = true
            context.refresh(task, mergeChanges: true)
            XCTAssertEqual(task.notes, "from the other context")
            XCTAssertTrue(task.isComplete, "local change kept")
            context.refresh(task, mergeChanges: false)
            XCTAssertFalse(task.isComplete)
            try context.save()

            context.reset()
            XCTAssertNil(task.managedObjectContext)
            let again = try context.fetch(FetchRequest<TestTask>())
            XCTAssertEqual(again.count, 1)
            XCTAssertFalse(again[0] === task, "reset forgets every instance")
        }
    }

    func testSaveWritesOnlyChangedColumns() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory)
        let a = container.newContext(), b = container.newContext()
        let task = TestTask(context: a)
        task.name = "x"
        try a.save()
        let mine = try XCTUnwrap(try b.existingObject(with: task.objectID) as? TestTask)
        task.notes = "a's notes"
        try a.save()
        // b's copy is now stale; with objectTrump b writes only the column it changed.
        b.mergePolicy = .objectTrump
        mine.isComplete = true
        try b.save()
        let check = try XCTUnwrap(try container.newContext().existingObject(with: task.objectID) as? TestTask)
        XCTAssertEqual(check.notes, "a's notes")
        XCTAssertTrue(check.isComplete)
    }

    func testObjectIDURIRoundTrip() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory)
        let context = container.newContext()
        let task = TestTask(context: context)
        task.name = "x"
        try context.save()
        let uri = task.objectID.uriRepresentation
        XCTAssertEqual(ObjectID(uriRepresentation: uri), task.objectID)
        let decoded = try JSONDecoder().decode(ObjectID.self, from: JSONEncoder().encode(task.objectID))
        XCTAssertEqual(decoded, task.objectID)
        XCTAssertNil(ObjectID(uriRepresentation: URL(fileURLWithPath: "/etc/passwd")))
        XCTAssertThrowsError(try context.existingObject(with: ObjectID(entityName: "Task", storeIdentifier: container.storeIdentifier, key: 999, isTemporary: false)))
    }
}
