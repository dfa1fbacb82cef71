import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Batched fetching keeps memory bounded: a results controller with a `fetchBatchSize`, and a
/// batched fetch iterated to the end, over 200,000 rows (100,000 under CI), measured by the peak
/// resident memory (`VmHWM`) of a child process that does only that, against the same
/// controller without a batch size, which makes every object.
///
/// VmHWM cannot be reset, so each measurement is a child process of its own (see
/// `ChildProcess`): it opens the store, warms up, notes its resident memory, runs the fetch,
/// reads a few rows, and reports its peak's growth over that.
final class BatchedFetchMemoryTests: XCTestCase {
    static let childRole = "batched-memory"

    private enum Mode: String, CaseIterable {
        case batchedController, plainController, batchedIterate
    }

    func testBatchedFetchingKeepsMemoryBounded() throws {
        #if os(Linux)
        let count = testSize("BatchedFetchMemoryTests objects", full: 200_000, ci: 100_000)
        let directory = TemporaryDirectory()
        let url = directory.file("memory.sqlite")
        do {
            let container = try PersistentContainer(model: ManagedObjectModel(entities: [TestTask.self]), store: .sqlite(url))
            var next = 0
            try container.newContext().execute(BatchInsertRequest<TestTask> { task in
                guard next < count else { return true }
                task.name = "task \((next &* 7_919) % count)"
                task.notes = next % 4 == 0 ? nil : "notes of task \(next)"
                task.isComplete = next % 3 == 0
                task.count = next
                next += 1
                return false
            })
        }
        var growth: [Mode: Int] = [:]
        for mode in Mode.allCases {
            let report = directory.file("report-\(mode.rawValue)").path
            let child = try ChildProcess.start(role: Self.childRole, settings: ["STORE": url.path, "MODE": mode.rawValue, "REPORT": report])
            XCTAssertTrue(ChildProcess.wait(for: child, timeout: 600), "\(mode): the child ends by itself")
            XCTAssertEqual(child.terminationStatus, 0, "\(mode): the child's run succeeded")
            let text = try XCTUnwrap(ChildProcess.awaitReport(at: report, until: Date()), "\(mode): the child reported")
            let fields = text.split(separator: " ").compactMap { Int($0) }
            guard fields.count == 2 else { return XCTFail("\(mode): a malformed report: \(text)") }
            XCTAssertEqual(fields[1], count, "\(mode): every row seen")
            growth[mode] = fields[0]
        }
        let mb = { (bytes: Int?) in String(format: "%.1f MB", Double(bytes ?? 0) / 1_048_576) }
        print("BatchedFetchMemoryTests: \(count) rows; peak resident growth: batched controller \(mb(growth[.batchedController])), "
              + "controller without a batch size \(mb(growth[.plainController])), batched fetch iterated \(mb(growth[.batchedIterate]))")
        // A made object (its storage, its ID, the identity map's slot, the row) costs several
        // hundred bytes; a batched row, its key and sort values: about 130.
        let bound = count * 220
        XCTAssertLessThan(growth[.batchedController] ?? .max, bound, "the batched controller holds keys, not objects")
        XCTAssertGreaterThan(growth[.plainController] ?? 0, bound, "the measurement sees made objects (or this test could not fail)")
        XCTAssertLessThan(growth[.batchedIterate] ?? .max, count * 24 + (16 << 20), "iterating holds keys and two batches")
        #else
        throw XCTSkip("measures VmHWM in /proc/self/status")
        #endif
    }

    /// In the child: one measured fetch; reports "<peak growth in bytes> <rows seen>".
    static func playChild() -> Int32 {
        guard let path = ChildProcess.setting("STORE"), let report = ChildProcess.setting("REPORT"),
              let mode = ChildProcess.setting("MODE").flatMap(Mode.init(rawValue:)) else { return 2 }
        do {
            let container = try PersistentContainer(model: ManagedObjectModel(entities: [TestTask.self]), store: .sqlite(URL(fileURLWithPath: path)))
            let context = container.newContext()
            var request = FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.isComplete), FetchSortDescriptor(\.name)])
            request.fetchBatchSize = mode == .plainController ? 0 : 500
            // Warm-up: statements prepared, tables made, before the baseline.
            var small = request
            small.fetchLimit = 10
            _ = try context.fetch(small)
            let baseline = resident("VmRSS")
            var seen = 0
            switch mode {
            case .batchedController, .plainController:
                let controller = FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: \.isComplete)
                try controller.performFetch()
                let sections = controller.sections
                seen = sections.reduce(0) { $0 + $1.numberOfObjects }
                for (index, section) in sections.enumerated() where section.numberOfObjects > 0 {
                    for item in [0, section.numberOfObjects / 2, section.numberOfObjects - 1] {
                        guard controller.object(at: IndexPath(item: item, section: index))?.name.isEmpty == false else { return 4 }
                    }
                }
            case .batchedIterate:
                for task in try context.fetchBatched(request) where !task.name.isEmpty { seen += 1 }
            }
            ChildProcess.report("\(resident("VmHWM") - baseline) \(seen)", to: report)
            return 0
        } catch {
            return 5
        }
    }

    /// A `/proc/self/status` figure (`VmRSS`, `VmHWM`), in bytes.
    private static func resident(_ field: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return (Int(line.dropFirst(field.count + 1).filter(\.isNumber)) ?? 0) * 1024
        }
        return 0
    }
}
