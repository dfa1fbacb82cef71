import Foundation
import PersistKit
import TaskModel
import XCTest

/// Reminders: open tasks whose time has come, each shown once, across processes.
final class ReminderTests: XCTestCase {
    func testDueRemindersAreShownOnceInEveryStoreOfTheFile() throws {
        let fixture = try TaskStoreFixture()
        let store = fixture.store
        let now = isoDate("2026-11-20T15:00:00.000Z")
        let early = try store.add(name: "early", TaskChanges(remindAt: .some(isoDate("2026-11-20T09:00:00.000Z"))))
        let exact = try store.add(name: "exact", TaskChanges(remindAt: .some(now)))
        try store.add(name: "later", TaskChanges(remindAt: .some(isoDate("2026-11-20T15:00:00.001Z"))))
        try store.add(name: "none")
        let done = try store.add(name: "done", TaskChanges(remindAt: .some(isoDate("2026-11-20T08:00:00.000Z"))))
        try store.setIsComplete(done, true)

        XCTAssertEqual(try store.dueReminders(now: now).names, ["early", "exact"])
        XCTAssertTrue(try store.markReminderShown(early, at: now))
        XCTAssertEqual(try store.dueReminders(now: now).names, ["exact"])
        // Another process sees what was shown, and cannot record it twice.
        let other = try fixture.reopen()
        XCTAssertEqual(try other.dueReminders(now: now).names, ["exact"])
        let earlyThere = try other.task(withReference: try XCTUnwrap(early.referenceNumber))
        XCTAssertFalse(try other.markReminderShown(earlyThere, at: now), "already recorded")
        XCTAssertTrue(try other.markReminderShown(try other.task(withReference: try XCTUnwrap(exact.referenceNumber)), at: now))
        XCTAssertEqual(try store.dueReminders(now: now).names, [])
    }

    func testAMovedReminderIsShownAgain() throws {
        let fixture = try TaskStoreFixture()
        let store = fixture.store
        let task = try store.add(name: "call", TaskChanges(remindAt: .some(isoDate("2026-11-20T09:00:00.000Z"))))
        try store.markReminderShown(task, at: isoDate("2026-11-20T09:00:00.000Z"))
        XCTAssertEqual(try store.dueReminders(now: isoDate("2026-11-21T00:00:00.000Z")).names, [])
        try store.edit(task, TaskChanges(remindAt: .some(isoDate("2026-11-20T18:00:00.000Z"))))
        XCTAssertEqual(try store.dueReminders(now: isoDate("2026-11-21T00:00:00.000Z")).names, ["call"])
        try store.edit(task, TaskChanges(remindAt: .some(nil)))
        XCTAssertEqual(try store.dueReminders(now: isoDate("2026-11-21T00:00:00.000Z")).names, [])
    }

    func testRemovingATaskRemovesItsNotices() throws {
        let fixture = try TaskStoreFixture()
        let store = fixture.store
        let remindAt = isoDate("2026-11-20T09:00:00.000Z")
        let task = try store.add(name: "call", TaskChanges(remindAt: .some(remindAt)))
        let kept = try store.add(name: "kept", TaskChanges(remindAt: .some(remindAt)))
        try store.markReminderShown(task, at: remindAt)
        try store.markReminderShown(kept, at: remindAt)
        try store.remove(task)
        let notices = try store.context.fetch(FetchRequest<ManagedObject>(entityName: "ReminderNotice"))
        XCTAssertEqual(try notices.compactMap { try $0.value(forKey: "taskReference") as? Int64 }, [try XCTUnwrap(kept.referenceNumber)])
    }
}
