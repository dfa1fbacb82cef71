import Foundation
import PersistKit
import TaskModel
import XCTest

/// `TaskStore.stats`: completions per day, open tasks by project and by priority, overdue.
final class StatsTests: XCTestCase {
    func testStatsCountEveryFigure() throws {
        let fixture = try TaskStoreFixture()
        let store = fixture.store
        let now = Date()
        let today = CalendarDay(date: now, calendar: .current)
        try store.add(name: "overdue day", TaskChanges(due: .some(.day(today.adding(days: -1))), priority: .high, project: "Home"))
        try store.add(name: "overdue instant", TaskChanges(due: .some(.time(now.addingTimeInterval(-3 * 86_400)))))
        try store.add(name: "due today", TaskChanges(due: .some(.day(today)), priority: .low, project: "Home"))
        try store.add(name: "undated", TaskChanges(project: "Work"))
        for index in 0..<3 {
            try store.setIsComplete(try store.add(name: "done \(index)", TaskChanges(project: "Work")), true)
        }
        let stats = try store.stats(days: 14, now: now, calendar: .current)
        XCTAssertEqual(stats.completedPerDay.count, 14)
        XCTAssertEqual(stats.completedPerDay.first?.day, today.adding(days: -13))
        XCTAssertEqual(stats.completedPerDay.last, TaskStats.DayCount(day: today, count: 3))
        XCTAssertEqual(stats.completedPerDay.dropLast().map(\.count), Array(repeating: 0, count: 13))
        XCTAssertEqual(stats.openByProject, [TaskStats.ProjectCount(project: "Home", count: 2),
                                             TaskStats.ProjectCount(project: "Work", count: 1),
                                             TaskStats.ProjectCount(project: nil, count: 1)])
        XCTAssertEqual(stats.openByPriority.map(\.priority), [.high, .normal, .low])
        XCTAssertEqual(stats.openByPriority.map(\.count), [1, 2, 1])
        XCTAssertEqual(stats.overdue, 2)
        XCTAssertEqual(stats.open, 4)
        XCTAssertEqual(stats.done, 3)
    }

    /// Completion times on fixed days, seen from a fixed calendar; tasks completed before
    /// completion times were kept count on no day.
    func testCompletionsAreCountedOnTheirLocalDay() throws {
        let fixture = try TaskStoreFixture()
        let store = fixture.store
        var records: [TaskRecord] = []
        let times = ["2026-11-20T23:30:00.000Z", "2026-11-20T00:10:00.000Z", "2026-11-19T12:00:00.000Z",
                     "2026-11-07T12:00:00.000Z", "2026-11-06T23:59:59.999Z"]
        for (index, time) in times.enumerated() {
            records.append(TaskRecord(name: "t\(index)", isComplete: true, createdAt: isoDate("2026-11-01T00:00:00.000Z"),
                                      completedAt: isoDate(time)))
        }
        records.append(TaskRecord(name: "completed long ago", isComplete: true, createdAt: isoDate("2026-11-01T00:00:00.000Z")))
        try store.importRecords(records)
        let stats = try store.stats(days: 14, now: isoDate("2026-11-20T23:45:00.000Z"), calendar: utcCalendar)
        XCTAssertEqual(stats.completedPerDay.first?.day.isoText, "2026-11-07")
        XCTAssertEqual(stats.completedPerDay.map(\.count), [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2])
        XCTAssertEqual(stats.done, 6)
    }
}
