import Dispatch
import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Another process holding SQLite's write lock: saves wait for it (within the busy timeout)
/// instead of failing with SQLITE_BUSY, fetches do not wait at all, and a lock held too long
/// fails the save with an error that says where and how long.
final class StoreBusyTests: XCTestCase {
    /// A connection of "another process" holding the write lock on `url` for `seconds`, on
    /// its own thread; the returned semaphore is signalled once it holds the lock.
    private func holdWriteLock(_ url: URL, for seconds: Double, released: DispatchSemaphore) throws -> DispatchSemaphore {
        let holding = DispatchSemaphore(value: 0)
        let path = url.path
        Thread {
            defer { released.signal() }
            guard let blocker = try? SQLiteConnection(path: path, configuration: .init(busyTimeout: 0)),
                  (try? blocker.execute("BEGIN IMMEDIATE")) != nil else { return }
            holding.signal()
            usleep(UInt32(seconds * 1_000_000))
            try? blocker.execute("COMMIT")
        }.start()
        return holding
    }

    func testASaveWaitsForAnotherProcessesWriteLock() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("busy.sqlite")
        let container = try PersistentContainer(model: ManagedObjectModel(entities: [TestTask.self]), store: .sqlite(url))
        let context = container.newContext()
        let released = DispatchSemaphore(value: 0)
        let holding = try holdWriteLock(url, for: 0.4, released: released)
        XCTAssertEqual(holding.wait(timeout: .now() + 10), .success)

        // Reads go on while the other process holds the lock.
        XCTAssertEqual(try context.count(for: FetchRequest<TestTask>()), 0)
        let task = TestTask(context: context)
        task.name = "saved after the wait"
        let started = Date()
        XCTAssertNoThrow(try context.save(), "the save waits for the lock instead of failing")
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.1, "it did wait")
        XCTAssertEqual(released.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<TestTask>()), 1)
    }

    func testALockHeldPastTheTimeoutFailsTheSaveSayingWhereAndHowLong() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("held.sqlite")
        let container = try PersistentContainer(model: ManagedObjectModel(entities: [TestTask.self]),
                                                store: .sqlite(url, busyTimeout: 0.3))
        let context = container.newContext()
        let released = DispatchSemaphore(value: 0)
        let holding = try holdWriteLock(url, for: 1, released: released)
        XCTAssertEqual(holding.wait(timeout: .now() + 10), .success)
        let task = TestTask(context: context)
        task.name = "waits too long"
        expectError(try context.save(), .cannotOpenStore) { error in
            XCTAssertEqual(error.sqliteCode?.primary, SQLiteResultCode.busy)
            XCTAssertTrue(error.message.contains("stayed locked by another connection or process for "), error.message)
            XCTAssertTrue(error.message.contains("(its busy timeout is 0.3 s)"), error.message)
            XCTAssertTrue(error.message.contains("nothing was written"), error.message)
            XCTAssertTrue(error.description.contains(url.lastPathComponent), error.description)
        }
        XCTAssertTrue(task.isInserted, "the context keeps its changes")
        XCTAssertEqual(released.wait(timeout: .now() + 10), .success)
        XCTAssertNoThrow(try context.save(), "once the lock is free the same save goes through")
    }
}
