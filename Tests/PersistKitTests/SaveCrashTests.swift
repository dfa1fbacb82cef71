import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A writer process killed (SIGKILL) in the middle of its saves loses no save it had returned
/// from, leaves no part of a save behind, and leaves a database that passes
/// `PRAGMA integrity_check`, every time.
final class SaveCrashTests: XCTestCase {
    static let childRole = "saving-writer"
    /// Objects each save inserts (and, in the next save, completes).
    private static let perSave = 40

    func testWriterKilledMidSaveLosesNoAcknowledgedSave() throws {
        let seed = testSeed("SaveCrashTests.testWriterKilledMidSaveLosesNoAcknowledgedSave")
        var generator = SeededGenerator(seed: seed)
        let kills = testSize("SaveCrashTests.testWriterKilledMidSaveLosesNoAcknowledgedSave", full: 100, ci: 20)
        let directory = TemporaryDirectory()
        let url = directory.file("killed.sqlite")
        let model = try ManagedObjectModel(entities: standardEntities)
        _ = try PersistentContainer(model: model, store: .sqlite(url))   // created before the first child
        var acknowledged: Set<Int> = []
        var committedUnacknowledged = 0
        for attempt in 0..<kills {
            let acks = directory.file("acks-\(attempt)").path
            let first = (attempt + 1) * 1_000_000
            let child = try ChildProcess.start(role: Self.childRole, settings: ["STORE": url.path, "ACKS": acks, "FIRST": String(first)])
            // Into its stream of saves (one acknowledged), then a random moment later.
            let deadline = Date().addingTimeInterval(60)
            while Self.acknowledgedSaves(acks).isEmpty && child.isRunning && Date() < deadline { usleep(500) }
            usleep(UInt32.random(in: 0...20_000, using: &generator))
            kill(child.processIdentifier, SIGKILL)   // no chance to finish anything
            child.waitUntilExit()
            XCTAssertEqual(child.terminationReason, .uncaughtSignal, "kill \(attempt): the child was killed, not done (seed \(seed))")

            let integrity = try Self.integrityCheck(url)
            XCTAssertEqual(integrity, "ok", "kill \(attempt): integrity_check (seed \(seed))")
            let saves = Self.acknowledgedSaves(acks)
            XCTAssertFalse(saves.isEmpty, "kill \(attempt): the child saved before it was killed")
            acknowledged.formUnion(saves)
            let stored = try Self.storedSaves(url, model: model)
            for save in acknowledged where stored[save] == nil {
                XCTFail("kill \(attempt): acknowledged save \(save) is lost (seed \(seed))")
            }
            for (save, rows) in stored {
                XCTAssertEqual(rows.count, Self.perSave, "kill \(attempt): save \(save) is whole (seed \(seed))")
                let completed = rows.completed
                XCTAssertTrue(completed == 0 || completed == Self.perSave, "kill \(attempt): save \(save) completed in part: \(completed)")
                if stored[save + 1] != nil {
                    XCTAssertEqual(completed, Self.perSave, "kill \(attempt): the save after \(save) completed it")
                }
            }
            committedUnacknowledged += stored.keys.filter { $0 >= first && $0 < first + 1_000_000 && !saves.contains($0) }.count
            try? FileManager.default.removeItem(atPath: acks)
        }
        print("SaveCrashTests: \(kills) kills, \(acknowledged.count) acknowledged saves, all present; "
              + "\(committedUnacknowledged) saves committed but killed before save() returned (inside COMMIT's fsync, mostly)")
    }

    /// The saves a child acknowledged: complete lines of its acknowledgements file.
    private static func acknowledgedSaves(_ path: String) -> Set<Int> {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        var saves = Set<Int>()
        let text = String(decoding: data, as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {   // the last is partial or empty
            if let save = Int(line) { saves.insert(save) }
        }
        return saves
    }

    private static func integrityCheck(_ url: URL) throws -> String? {
        let connection = try SQLiteConnection(path: url.path, configuration: .init(synchronous: .full, busyTimeout: 5))
        return try connection.singleText("PRAGMA integrity_check")
    }

    /// The rows of each save in the store: how many, and how many completed.
    private static func storedSaves(_ url: URL, model: ManagedObjectModel) throws -> [Int: (count: Int, completed: Int)] {
        let container = try PersistentContainer(model: model, store: .sqlite(url))
        var saves: [Int: (count: Int, completed: Int)] = [:]
        for task in try container.newContext().fetch(FetchRequest<TestTask>()) {
            saves[task.count, default: (0, 0)].count += 1
            if task.isComplete { saves[task.count, default: (0, 0)].completed += 1 }
        }
        return saves
    }

    /// In a child: saves until killed. Each save inserts `perSave` tasks numbered by the save
    /// and completes the previous save's tasks; once `save()` returns, the save's number is
    /// appended to the acknowledgements file, in one `write`.
    static func playChild() -> Int32 {
        guard let path = ChildProcess.setting("STORE"), let acks = ChildProcess.setting("ACKS"),
              let first = ChildProcess.setting("FIRST").flatMap(Int.init),
              FileManager.default.createFile(atPath: acks, contents: nil), let file = FileHandle(forWritingAtPath: acks)
        else { return 2 }
        do {
            let container = try PersistentContainer(model: ManagedObjectModel(entities: standardEntities),
                                                    store: .sqlite(URL(fileURLWithPath: path)))
            let context = container.newContext()
            var previous: [TestTask] = []
            let notes = String(repeating: "a note long enough to fill pages ", count: 8)
            for save in first..<(first + 100_000) {
                for task in previous { task.isComplete = true }
                previous = (0..<perSave).map { index in
                    let task = TestTask(context: context)
                    task.name = "save \(save) task \(index)"
                    task.notes = notes
                    task.count = save
                    return task
                }
                try context.save()
                file.write(Data("\(save)\n".utf8))
            }
        } catch {
            return 1
        }
        return 0
    }
}
