import Foundation
import PersistKit
import TaskModel
import XCTest

/// Export and import: a JSON document with every task; a round trip loses nothing.
final class TaskTransferTests: XCTestCase {
    private struct Snapshot: Equatable {
        let name: String, notes: String?, due: Date?, isComplete: Bool, createdAt: Date
        init(_ task: TaskItem) {
            name = task.name; notes = task.notes; due = task.due; isComplete = task.isComplete; createdAt = task.createdAt
        }
    }

    private func addVariedTasks(to store: TaskStore) throws {
        try store.add(name: "Plain")
        try store.add(name: "With notes", notes: "Line one\nLine two — «ünïcödé» 🎉\n", due: nil)
        try store.add(name: "Dated", due: Date(timeIntervalSince1970: 1_795_000_000.123_456))
        let done = try store.add(name: "Done \"quoted\" / slashed", notes: "x", due: isoDate("1969-07-20T20:17:40.000Z"))
        try store.toggleIsComplete(done)
    }

    func testRoundTripIntoEmptyStoreLosesNothing() throws {
        let source = try TaskStoreFixture()
        try addVariedTasks(to: source.store)
        let data = try source.store.exportDocument()

        let target = try TaskStoreFixture()
        let result = try target.store.importDocument(data)
        XCTAssertEqual(result, ImportResult(imported: 4, skipped: 0))
        XCTAssertEqual(try target.reopen().tasks().map(Snapshot.init), try source.store.tasks().map(Snapshot.init))
        // And the export of the copy is the same document, but for its date.
        let again = try TaskDocument(data: try target.store.exportDocument())
        XCTAssertEqual(again.tasks, try TaskDocument(data: data).tasks)
    }

    func testDocumentShape() throws {
        let fixture = try TaskStoreFixture()
        try fixture.store.add(name: "Buy milk")
        let data = try fixture.store.exportDocument()
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(json["format"] as? String, "tasks")
        XCTAssertEqual(json["version"] as? Int, 3)
        XCTAssertNotNil(json["exportedAt"] as? String)
        XCTAssertEqual(json["projects"] as? [String], [])
        XCTAssertEqual(json["tags"] as? [String], [])
        XCTAssertEqual((json["reviews"] as? [Any])?.count, 0)
        XCTAssertEqual(json["limits"] as? [String: Int], ["high": 1, "normal": 3, "low": 5])
        let task = try XCTUnwrap((json["tasks"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set(task.keys), ["name", "notes", "due", "isComplete", "createdAt", "priority", "project", "tags",
                                        "completedAt", "remindAt", "plannedFor", "backloggedAt", "attachments"])
        XCTAssertTrue(task["notes"] is NSNull)
        XCTAssertTrue(task["project"] is NSNull)
        XCTAssertEqual(task["priority"] as? String, "normal")
        XCTAssertEqual(task["tags"] as? [String], [])
        XCTAssertEqual((task["attachments"] as? [Any])?.count, 0)
        let created = try XCTUnwrap(task["createdAt"] as? String)
        XCTAssertTrue(created.hasSuffix("Z") && created.count == 24, created)
    }

    func testImportSkipsDuplicatesByDefault() throws {
        let fixture = try TaskStoreFixture()
        try addVariedTasks(to: fixture.store)
        let data = try fixture.store.exportDocument()
        // Changed since the export: still the same task.
        let plain = try XCTUnwrap(try fixture.store.tasks().first { $0.name == "Plain" })
        try fixture.store.toggleIsComplete(plain)

        XCTAssertEqual(try fixture.store.importDocument(data), ImportResult(imported: 0, skipped: 4))
        XCTAssertEqual(try fixture.store.count(), 4)
        XCTAssertEqual(try fixture.store.importDocument(data, duplicates: .keep), ImportResult(imported: 4, skipped: 0))
        XCTAssertEqual(try fixture.store.count(), 8)
    }

    func testImportIntoNonEmptyStoreAddsNewTasks() throws {
        let source = try TaskStoreFixture()
        try addVariedTasks(to: source.store)
        let target = try TaskStoreFixture()
        try target.store.add(name: "Already here")
        XCTAssertEqual(try target.store.importDocument(try source.store.exportDocument()).imported, 4)
        XCTAssertEqual(try target.store.count(), 5)
    }

    func testIdenticalTasksWithinADocumentAreAllImported() throws {
        let created = isoDate("2026-11-01T08:00:00.000Z")
        let document = TaskDocument(tasks: [TaskRecord(name: "Twin", createdAt: created), TaskRecord(name: "Twin", createdAt: created)])
        let fixture = try TaskStoreFixture()
        XCTAssertEqual(try fixture.store.importDocument(document.encoded()).imported, 2)
    }

    func testBadDocumentsAreRefusedWithReasons() throws {
        let fixture = try TaskStoreFixture()
        let cases: [(String, String)] = [
            ("not json", "not a task export"),
            ("[1, 2]", "not a task export"),
            (#"{"format": "other", "version": 1, "tasks": []}"#, "format"),
            (#"{"format": "tasks", "version": 9, "tasks": []}"#, "version 9"),
            (#"{"format": "tasks", "version": 1, "exportedAt": "2026-11-01T08:00:00.000Z", "tasks": [{"name": "x"}]}"#,
             "createdAt of task 1 is missing"),
            (#"{"format": "tasks", "version": 1, "exportedAt": "2026-11-01T08:00:00.000Z", "tasks": [{"name": 3, "createdAt": "2026-11-01T08:00:00.000Z"}]}"#,
             "name of task 1 should be a string"),
            (#"{"format": "tasks", "version": 1, "exportedAt": "2026-11-01T08:00:00.000Z", "tasks": [{"name": "x", "createdAt": "yesterday"}]}"#,
             "'yesterday' is not an ISO 8601 date"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try fixture.store.importDocument(Data(text.utf8)), text) { error in
                XCTAssertEqual((error as? PersistError)?.code, .typeMismatch, text)
                XCTAssertTrue("\(error)".contains(expected), "\(error) should mention \(expected)")
            }
        }
        XCTAssertEqual(try fixture.store.count(), 0)
    }

    /// People count from 1: the third task of a document is "task 3", as validation says it.
    func testImportErrorsCountTasksFromOne() throws {
        let fixture = try TaskStoreFixture()
        let good = #"{"name": "ok", "createdAt": "2026-11-01T08:00:00.000Z"}"#
        let cases: [(String, String)] = [
            (#"{"name": "x"}"#, "not a valid task export (createdAt of task 3 is missing)"),
            (#"{"name": 3, "createdAt": "2026-11-01T08:00:00.000Z"}"#, "not a valid task export (name of task 3 should be a string)"),
            (#"{"name": "x", "createdAt": "soon"}"#, "not a valid task export (createdAt of task 3: 'soon' is not an ISO 8601"),
            (#"{"name": "x", "isComplete": "yes", "createdAt": "2026-11-01T08:00:00.000Z"}"#,
             "not a valid task export (isComplete of task 3 should be true or false)"),
            ("7", "not a valid task export (task 3 should be"),
            (#"{"name": " ", "createdAt": "2026-11-01T08:00:00.000Z"}"#, "not a valid task export (task 3: a task's name cannot be empty)"),
        ]
        for (third, expected) in cases {
            let text = #"{"format": "tasks", "version": 1, "exportedAt": "2026-11-01T08:00:00Z", "tasks": ["#
                + [good, good, third].joined(separator: ", ") + "]}"
            XCTAssertThrowsError(try fixture.store.importDocument(Data(text.utf8)), third) { error in
                let message = (error as? PersistError)?.message ?? "\(error)"
                XCTAssertTrue(message.hasPrefix(expected), "\(message) should begin \(expected)")
            }
        }
        XCTAssertEqual(try fixture.store.count(), 0)
    }

    func testMinimalHandWrittenDocumentImports() throws {
        let text = #"{"format": "tasks", "version": 1, "exportedAt": "2026-11-01T08:00:00Z", "tasks": [{"name": " Hand written ", "createdAt": "2026-11-01T09:00:00+01:00"}]}"#
        let fixture = try TaskStoreFixture()
        XCTAssertEqual(try fixture.store.importDocument(Data(text.utf8)).imported, 1)
        let task = try XCTUnwrap(try fixture.store.tasks().first)
        XCTAssertEqual(task.name, "Hand written")
        XCTAssertEqual(task.createdAt, isoDate("2026-11-01T08:00:00.000Z"))
        XCTAssertFalse(task.isComplete)
        XCTAssertNil(task.due)
    }

    func testDateCodingIsExactToTheMillisecond() {
        for seconds in [0, 1, -1, 0.001, -0.001, 1_795_000_000.123, -14_182_940.5, 4_102_444_799.999, 951_782_400] {
            let date = Date(timeIntervalSince1970: seconds)
            let text = TaskDateCoding.string(from: date)
            XCTAssertEqual(TaskDateCoding.date(from: text), TaskDateCoding.normalized(date), text)
        }
        XCTAssertEqual(TaskDateCoding.string(from: Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(TaskDateCoding.string(from: Date(timeIntervalSince1970: 951_782_400)), "2000-02-29T00:00:00.000Z")
        XCTAssertEqual(TaskDateCoding.string(from: Date(timeIntervalSince1970: -0.001)), "1969-12-31T23:59:59.999Z")
        for bad in ["", "2026-02-30T00:00:00Z", "2026-11-25", "2026-11-25T24:00:00Z", "2026-11-25T10:00:00",
                    "2026-11-25T10:00:00.1234Z", "2026-11-25T10:00:00.Z", "2026-11-25T10:00:00Zjunk"] {
            XCTAssertNil(TaskDateCoding.date(from: bad), bad)
        }
        XCTAssertNotNil(TaskDateCoding.date(from: "2026-11-25T10:00:00.1230Z"), "zero digits past milliseconds are fine")
    }

    // MARK: Version 2

    func testVersion2RoundTripKeepsProjectsTagsPrioritiesAndTimes() throws {
        let source = try TaskStoreFixture()
        let store = source.store
        let day = try XCTUnwrap(CalendarDay(isoText: "2026-12-01"))
        try store.add(name: "Buy milk", TaskChanges(due: .some(.day(day)), priority: .high, project: "Home",
                                                    addedTags: ["errands", "shop"], remindAt: .some(isoDate("2026-11-30T08:00:00.000Z"))))
        try store.add(name: "Call the bank", TaskChanges(due: .some(.time(isoDate("2026-12-02T14:30:00.000Z"))), priority: .low))
        let done = try store.add(name: "Water plants", TaskChanges(project: "Garden"))
        try store.setIsComplete(done, true)
        try store.add(name: "Legacy", notes: nil, due: isoDate("2026-11-30T23:00:00.000Z"))
        try store.renameProject("Garden", to: "Garden")
        _ = try store.add(name: "Temp", TaskChanges(project: "Empty project", addedTags: ["lonely"]))
        try store.remove(try XCTUnwrap(try store.tasks().first { $0.name == "Temp" }))
        let data = try store.exportDocument()

        let document = try TaskDocument(data: data)
        XCTAssertEqual(document.version, 3)
        XCTAssertEqual(document.projects, ["Empty project", "Garden", "Home"])
        XCTAssertEqual(document.tags, ["errands", "lonely", "shop"])
        let milk = try XCTUnwrap(document.tasks.first { $0.name == "Buy milk" })
        XCTAssertEqual(milk.due, .day(day))
        XCTAssertEqual(milk.tags, ["errands", "shop"])
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let first = try XCTUnwrap((json["tasks"] as? [[String: Any]])?.first { $0["name"] as? String == "Buy milk" })
        XCTAssertEqual(first["due"] as? String, "2026-12-01", "a due day is written as a day")
        XCTAssertEqual(first["priority"] as? String, "high")

        let target = try TaskStoreFixture()
        XCTAssertEqual(try target.store.importDocument(data), ImportResult(imported: 4, skipped: 0))
        let copy = try target.reopen()
        XCTAssertEqual(try copy.projects().map(\.name), ["Empty project", "Garden", "Home"])
        XCTAssertEqual(try copy.tags().map(\.name), ["errands", "lonely", "shop"])
        XCTAssertEqual(try TaskDocument(data: try copy.exportDocument()).tasks, document.tasks)
        let copiedMilk = try XCTUnwrap(try copy.tasks().first { $0.name == "Buy milk" })
        XCTAssertEqual(copiedMilk.dueDay, day)
        XCTAssertEqual(copiedMilk.project?.name, "Home")
        XCTAssertEqual(try copy.tasks().first { $0.name == "Water plants" }?.completedAt, done.completedAt)
    }

    func testImportUsesProjectsAndTagsTheStoreHasWhateverTheirCase() throws {
        let fixture = try TaskStoreFixture()
        try fixture.store.add(name: "Mine", TaskChanges(project: "Home", addedTags: ["Errands"]))
        let created = isoDate("2026-11-01T08:00:00.000Z")
        let document = TaskDocument(tasks: [TaskRecord(name: "Theirs", createdAt: created, project: "HOME", tags: ["errands", "new"])],
                                    projects: ["home"], tags: ["#ERRANDS"])
        XCTAssertEqual(try fixture.store.importDocument(document.encoded()).imported, 1)
        XCTAssertEqual(try fixture.store.projectSummaries(), [LabelSummary(name: "Home", open: 2, done: 0)])
        XCTAssertEqual(try fixture.store.tagSummaries(), [LabelSummary(name: "Errands", open: 2, done: 0),
                                                          LabelSummary(name: "new", open: 1, done: 0)])
    }

    /// A version 1 export (every due an instant, no labels) still imports; its hashtags become
    /// tags, as when a version 1 store is upgraded.
    func testVersion1DocumentsStillImport() throws {
        let text = ##"{"format": "tasks", "version": 1, "exportedAt": "2026-11-01T08:00:00.000Z", "tasks": [{"name": "Buy milk #errands", "notes": "#Shop", "due": "2026-11-24T23:00:00.000Z", "isComplete": true, "createdAt": "2026-11-01T09:00:00.000Z"}]}"##
        let fixture = try TaskStoreFixture()
        XCTAssertEqual(try fixture.store.importDocument(Data(text.utf8)).imported, 1)
        let task = try XCTUnwrap(try fixture.store.tasks().first)
        XCTAssertEqual(task.due, isoDate("2026-11-24T23:00:00.000Z"))
        XCTAssertFalse(task.dueIsDay)
        XCTAssertEqual(task.priority, .normal)
        XCTAssertNil(task.completedAt, "completed before completion times were kept")
        XCTAssertEqual(task.tagNames, ["errands", "Shop"])
        XCTAssertEqual(task.name, "Buy milk #errands")
    }

    func testBadVersion2ValuesAreRefusedWithReasons() throws {
        let fixture = try TaskStoreFixture()
        let head = #"{"format": "tasks", "version": 2, "exportedAt": "2026-11-01T08:00:00.000Z", "#
        let cases: [(String, String)] = [
            (#""tasks": [{"name": "x", "createdAt": "2026-11-01T08:00:00.000Z", "priority": "urgent"}]}"#,
             "priority of task 1: 'urgent' is not a priority (low, normal or high)"),
            (#""tasks": [{"name": "x", "createdAt": "2026-11-01T08:00:00.000Z", "due": "soon"}]}"#,
             "due of task 1: 'soon' is not a day"),
            (#""tasks": [{"name": "x", "createdAt": "2026-11-01T08:00:00.000Z", "tags": ["a b"]}]}"#,
             "not a valid task export (task 1: a tag's name cannot contain spaces)"),
            (#""tasks": [{"name": "x", "createdAt": "2026-11-01T08:00:00.000Z", "project": " "}]}"#,
             "not a valid task export (task 1: a project's name cannot be empty)"),
            (#""tasks": [], "projects": ["ok", ""]}"#, "not a valid task export (project 2: a project's name cannot be empty)"),
            (#""tasks": [], "tags": 3}"#, "tags should be a list of strings"),
        ]
        for (tail, expected) in cases {
            XCTAssertThrowsError(try fixture.store.importDocument(Data((head + tail).utf8)), tail) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error) should mention \(expected)")
            }
        }
        XCTAssertEqual(try fixture.store.count(), 0)
        XCTAssertEqual(try fixture.store.projects().count, 0)
    }
}
