import Foundation
import PersistKit
import TaskModel
import XCTest

/// A task's name is required, 1 to 1,000 characters, one line and trimmed; problems are
/// validation errors naming the field, and leave the store unchanged.
final class TaskValidationTests: XCTestCase {
    private func assertValidationError<T>(_ expression: @autoclosure () throws -> T, mentions text: String,
                                       file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            guard let error = error as? PersistError else {
                return XCTFail("not a PersistError: \(error)", file: file, line: line)
            }
            XCTAssertEqual(error.code, .validation, file: file, line: line)
            XCTAssertEqual(error.entity, "Task", file: file, line: line)
            XCTAssertEqual(error.attribute, "name", file: file, line: line)
            XCTAssertTrue(error.message.contains(text), "\(error.message)", file: file, line: line)
        }
    }

    func testEmptyNamesAreRefused() throws {
        let fixture = try TaskStoreFixture()
        let before = fixture.fileBytes()
        assertValidationError(try fixture.store.add(name: ""), mentions: "empty")
        assertValidationError(try fixture.store.add(name: "  \t\n "), mentions: "empty")
        XCTAssertEqual(try fixture.store.count(), 0)
        XCTAssertFalse(fixture.store.context.hasChanges)
        XCTAssertEqual(fixture.fileBytes(), before)
    }

    func testMultiLineNamesAreRefused() throws {
        let fixture = try TaskStoreFixture()
        assertValidationError(try fixture.store.add(name: "Buy\nmilk"), mentions: "one line")
        XCTAssertEqual(try fixture.store.count(), 0)
    }

    func testUpdateToAnEmptyNameChangesNothing() throws {
        let fixture = try TaskStoreFixture()
        let task = try fixture.store.add(name: "Keep me", notes: "notes")
        assertValidationError(try fixture.store.update(task, name: " ", notes: nil, due: nil), mentions: "empty")
        XCTAssertEqual(task.name, "Keep me")
        XCTAssertEqual(task.notes, "notes")
        XCTAssertFalse(fixture.store.context.hasChanges)
        XCTAssertEqual(try fixture.reopen().tasks().names, ["Keep me"])
    }

    func testValidateForSaveGuardsDirectChanges() throws {
        let fixture = try TaskStoreFixture()
        let task = try fixture.store.add(name: "Direct")
        task.name = "  padded  "
        XCTAssertThrowsError(try fixture.store.context.save()) { error in
            XCTAssertEqual((error as? PersistError)?.code, .validation)
            XCTAssertTrue("\(error)".contains("spaces"), "\(error)")
        }
        fixture.store.context.rollback()
        XCTAssertEqual(task.name, "Direct")
        XCTAssertNoThrow(try TaskItem.validate(name: "Fine"))
    }

    func testImportWithABadNameImportsNothing() throws {
        let fixture = try TaskStoreFixture()
        let created = isoDate("2026-11-01T08:00:00.000Z")
        let records = [TaskRecord(name: "Good", createdAt: created), TaskRecord(name: " ", createdAt: created)]
        XCTAssertThrowsError(try fixture.store.importRecords(records)) { error in
            XCTAssertEqual((error as? PersistError)?.code, .validation)
            XCTAssertEqual((error as? PersistError)?.message, "task 2: a task's name cannot be empty")
        }
        XCTAssertEqual(try fixture.store.count(), 0)
    }

    func testNamesLongerThan1000CharactersAreRefused() throws {
        let fixture = try TaskStoreFixture()
        let longest = String(repeating: "x", count: 1_000)
        let task = try fixture.store.add(name: longest)
        XCTAssertEqual(task.name.count, 1_000)
        let before = fixture.fileBytes()
        assertValidationError(try fixture.store.add(name: longest + "y"),
                              mentions: "a task's name can be at most 1,000 characters (this one has 1,001)")
        assertValidationError(try fixture.store.update(task, name: longest + "yy", notes: nil, due: nil),
                              mentions: "(this one has 1,002)")
        XCTAssertEqual(task.name, longest)
        XCTAssertEqual(try fixture.store.count(), 1)
        XCTAssertEqual(fixture.fileBytes(), before)
    }

    /// The length is a rule of the model's `name` attribute: the save itself refuses a change
    /// made around TaskStore, once (not also in validateForSave's words).
    func testNameLengthIsARuleOfTheModel() throws {
        let name = try XCTUnwrap(TaskStore.makeModel().entity(named: "Task")?.attribute(named: "name"))
        XCTAssertEqual(name.validation.minimumLength, 1)
        XCTAssertEqual(name.validation.maximumLength, TaskItem.maximumNameLength)

        let fixture = try TaskStoreFixture()
        let task = try fixture.store.add(name: "Direct")
        task.name = String(repeating: "z", count: 1_001)
        XCTAssertThrowsError(try fixture.store.context.save()) { error in
            XCTAssertEqual((error as? PersistError)?.code, .validation)
            XCTAssertEqual((error as? PersistError)?.attribute, "name")
            XCTAssertEqual((error as? PersistError)?.problems, ["Task.name must be at most 1,000 characters (has 1,001)"])
        }
        task.name = ""
        XCTAssertThrowsError(try fixture.store.context.save()) { error in
            XCTAssertEqual((error as? PersistError)?.problems, ["Task.name must be at least 1 character (has 0)"])
        }
        fixture.store.context.rollback()
        XCTAssertEqual(task.name, "Direct")
    }
}
