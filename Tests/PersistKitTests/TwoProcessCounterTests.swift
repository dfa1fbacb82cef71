import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Two processes increment one counter, each with read-modify-write saves that retry on a
/// conflict: no increment is lost (the row version catches every overlap), and no SQLite
/// busy error reaches either of them (the writer waits for the other's lock).
final class TwoProcessCounterTests: XCTestCase {
    static let childRole = "counter"
    private static let counterName = "the counter"

    func testTwoProcessesIncrementOneCounterExactly() throws {
        let increments = 1_000
        print("TwoProcessCounterTests size: 2 processes x \(increments) increments")
        let directory = TemporaryDirectory()
        let url = directory.file("counter.sqlite")
        let container = try PersistentContainer(model: ManagedObjectModel(entities: standardEntities), store: .sqlite(url))
        let setup = container.newContext()
        let counter = TestTask(context: setup)
        counter.name = Self.counterName
        try setup.save()

        let started = Date()
        var children: [(Process, String)] = []
        for index in 0..<2 {
            let report = directory.file("report-\(index)").path
            let child = try ChildProcess.start(role: Self.childRole, settings: [
                "STORE": url.path, "REPORT": report, "INCREMENTS": String(increments)])
            children.append((child, report))
        }
        var reports: [String] = []
        for (index, (child, report)) in children.enumerated() {
            XCTAssertTrue(ChildProcess.wait(for: child, timeout: 300), "child \(index) ends by itself")
            XCTAssertEqual(child.terminationStatus, 0, "child \(index) exit status")
            reports.append(ChildProcess.awaitReport(at: report, until: Date()) ?? "no report")
        }
        print("TwoProcessCounterTests: \(String(format: "%.1f", Date().timeIntervalSince(started))) s; " + reports.joined(separator: "; "))
        for (index, report) in reports.enumerated() {
            XCTAssertTrue(report.hasPrefix("increments=\(increments) "), "child \(index): \(report)")
            XCTAssertTrue(report.contains(" busy=0 "), "child \(index) saw no busy error: \(report)")
            XCTAssertTrue(report.hasSuffix(" errors=0"), "child \(index): \(report)")
        }
        let check = container.newContext()
        let final = try check.fetch(FetchRequest<TestTask>(predicate: \.name == Self.counterName))
        XCTAssertEqual(final.map(\.count), [2 * increments], "every increment of both processes is in the counter")
    }

    /// In a child: increments the counter `INCREMENTS` times, each a fetch, `+= 1` and a save,
    /// retried from a fresh read after a conflict. Reports how it went.
    static func playChild() -> Int32 {
        guard let path = ChildProcess.setting("STORE"), let report = ChildProcess.setting("REPORT"),
              let increments = ChildProcess.setting("INCREMENTS").flatMap(Int.init) else { return 2 }
        var done = 0, conflicts = 0, busy = 0, errors: [String] = []
        do {
            let container = try PersistentContainer(model: ManagedObjectModel(entities: standardEntities),
                                                    store: .sqlite(URL(fileURLWithPath: path)))
            let context = container.newContext()
            let request = FetchRequest<TestTask>(predicate: \.name == counterName)
            while done < increments && errors.isEmpty {
                do {
                    guard let counter = try context.fetch(request).first else { throw PersistError(.objectNotFound, "no counter") }
                    counter.count += 1
                    try context.save()
                    done += 1
                } catch let error as PersistError where error.code == .conflict {
                    conflicts += 1
                    context.rollback()   // the next fetch reads the counter as it is now
                } catch let error as PersistError where error.sqliteCode?.primary == SQLiteResultCode.busy {
                    busy += 1
                    errors.append("\(error)")
                }
            }
        } catch {
            errors.append("\(error)")
        }
        ChildProcess.report("increments=\(done) conflicts=\(conflicts) busy=\(busy) errors=\(errors.count)"
                            + (errors.isEmpty ? "" : " first: \(errors[0])"), to: report)
        return 0
    }
}
