import Foundation
import PersistKit
import TaskModel
import XCTest

/// A task store in its own temporary directory, removed when the fixture goes.
final class TaskStoreFixture {
    let directory: URL
    let url: URL
    private(set) var store: TaskStore

    private let clock: () -> Date

    /// A fresh SQLite task store; without sample data unless asked; on `clock` (the system's
    /// unless given).
    init(stagesSampleData: Bool = false, clock: @escaping () -> Date = { Date() }) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("taskmodel-tests-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent("tasks.sqlite")
        self.clock = clock
        store = try TaskStore(url: url, stagesSampleData: stagesSampleData, clock: clock)
    }

    /// A fresh SQLite task store on a test's clock.
    convenience init(clock: TestClock) throws {
        try self.init(clock: { clock.now })
    }

    /// Opens the same file again in a new container, as a new process would, on the same clock.
    func reopen(stagesSampleData: Bool = true) throws -> TaskStore {
        try TaskStore(url: url, stagesSampleData: stagesSampleData, clock: clock)
    }

    /// The store file's bytes (the WAL too, which holds commits not yet checkpointed).
    func fileBytes() -> Data {
        let main = (try? Data(contentsOf: url)) ?? Data()
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: url.path + "-wal"))) ?? Data()
        return main + wal
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
}

/// A fixed calendar for tests that count days: Gregorian, UTC.
let utcCalendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
    return calendar
}()

/// A date from `YYYY-MM-DDTHH:MM:SS.fffZ` text; fails the test for bad text.
func isoDate(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Date {
    guard let date = TaskDateCoding.date(from: text) else {
        XCTFail("bad test date \(text)", file: file, line: line)
        return Date(timeIntervalSince1970: 0)
    }
    return date
}

extension Array where Element == TaskItem {
    /// The names, in order.
    var names: [String] { map(\.name) }
}
