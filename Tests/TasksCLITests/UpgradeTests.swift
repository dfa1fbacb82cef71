import Foundation
import PersistKit
import PersistKitTestSupport
import TaskModel
import XCTest

/// A store written by tasks 0.1 (TaskModel version 1) is upgraded the first time the new tasks
/// opens it: one line on standard error, everything else as before; killed meanwhile, it is
/// left whole.
final class UpgradeTests: XCTestCase {
    /// Writes a version 1 store of `count` tasks (every third with a hashtag) at `url`.
    private func writeVersion1Store(at url: URL, count: Int) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let container = try PersistentContainer(model: try TaskModelV1.makeModel(), store: .sqlite(url))
        let context = container.newContext()
        _ = TaskModelV1.StoreInfo(context: context)
        for index in 0..<count {
            let task = TaskModelV1.TaskItem(context: context)
            task.name = "Task \(index)" + (index % 3 == 0 ? " #errands" : "")
            task.due = index % 2 == 0 ? Date(timeIntervalSince1970: 1_900_000_000 + Double(index) * 3600) : nil
            task.isComplete = index % 5 == 0
            task.createdAt = Date(timeIntervalSince1970: 1_700_000_000 + Double(index))
        }
        try context.save()
    }

    func testAVersion1StoreIsUpgradedOnceSayingSo() throws {
        let fixture = try CLIFixture()
        try writeVersion1Store(at: fixture.storeURL, count: 3)
        let upgrading = try fixture.run(["list", "--json"])
        XCTAssertEqual(upgrading.status, 0, upgrading.stderr)
        XCTAssertEqual(upgrading.stderr, "Upgraded tasks.sqlite to version 3 (3 tasks)\n")
        let list = try JSONDecoder().decode(ListOutput.self, from: Data(upgrading.stdout.utf8))
        XCTAssertEqual(list.allTasks.map(\.name), ["Task 2", "Task 1", "Task 0 #errands"])
        let first = try XCTUnwrap(list.allTasks.last)
        XCTAssertEqual(first.tags, ["errands"])
        XCTAssertEqual(first.dueAt, "2030-03-17T17:46:40.000Z", "a version 1 due keeps its instant")
        XCTAssertNil(first.completedAt, "completed before completion times were kept")
        try fixture.ok("list")   // says nothing on standard error: upgraded once
        try fixture.ok("edit", String(first.ref), "--project", "Home", "--priority", "high", "--due", "tomorrow")
        XCTAssertEqual(try fixture.list().task(first.ref)?.project, "Home")
    }

    /// Issue 31: a store of tasks 0.2 (model version 2) is upgraded to version 3 once, saying
    /// so; its tasks, projects and tags stay, and the day plan works on them.
    func testAVersion2StoreIsUpgradedOnceSayingSo() throws {
        let fixture = try CLIFixture()
        try FileManager.default.createDirectory(at: fixture.storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            let context = try PersistentContainer(model: try TaskModelV2.makeModel(), store: .sqlite(fixture.storeURL)).newContext()
            _ = TaskModelV2.StoreInfo(context: context)
            let home = TaskModelV2.Project(context: context)
            home.name = "Home"
            for (index, name) in ["Fix the gate", "Pay rent"].enumerated() {
                let task = TaskModelV2.TaskItem(context: context)
                task.name = name
                task.createdAt = Date(timeIntervalSince1970: 1_700_000_000 + Double(index))
                task.priority = index == 0 ? .high : .normal
                task.project = home
            }
            try context.save()
        }
        let upgrading = try fixture.run(["list", "--json"])
        XCTAssertEqual(upgrading.status, 0, upgrading.stderr)
        XCTAssertEqual(upgrading.stderr, "Upgraded tasks.sqlite to version 3 (2 tasks)\n")
        let list = try JSONDecoder().decode(ListOutput.self, from: Data(upgrading.stdout.utf8))
        XCTAssertEqual(list.allTasks.map(\.name), ["Fix the gate", "Pay rent"])
        XCTAssertEqual(list.allTasks.map(\.project), ["Home", "Home"])
        XCTAssertEqual(list.allTasks.map(\.plannedFor), [nil, nil])
        XCTAssertEqual(try fixture.ok("limits").lines.dropFirst(), ["  high    1", "  normal  3", "  low     5"])
        XCTAssertEqual(try fixture.ok("plan", "1", "2").lines.count, 2, "nothing said of an upgrade a second time")
    }

    func testAStoreOfANewerTasksIsRefusedUntouched() throws {
        let fixture = try CLIFixture()
        var document = try XCTUnwrap(try JSONSerialization.jsonObject(with: try TaskStore.makeModel().document) as? [String: Any])
        var entities = try XCTUnwrap(document["entities"] as? [[String: Any]])
        entities.append(["name": "Milestone", "attributes": [["name": "title", "optional": true, "type": "string"]],
                         "relationships": [Any](), "uniquenessConstraints": [Any]()])
        document["entities"] = entities
        let newer = try ManagedObjectModel(document: try JSONSerialization.data(withJSONObject: document), version: 4)
        try FileManager.default.createDirectory(at: fixture.storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try PersistentContainer(model: newer, store: .sqlite(fixture.storeURL))
        try fixture.fails(["list"], status: 1, message: "\(fixture.storeURL.path) was written by a newer version of tasks "
                          + "(model version 4; this one reads up to 3); it was left untouched")
    }

    /// Killed at random moments of its upgrade, `tasks` leaves the store as version 1 or as
    /// the current version, whole, never between; the next run upgrades it (or finds it done).
    func testAKilledUpgradeLeavesTheStoreWhole() throws {
        let count = testSize("testAKilledUpgradeLeavesTheStoreWhole", full: 20_000, ci: 2_000)
        let rounds = testSize("testAKilledUpgradeLeavesTheStoreWhole rounds", full: 10, ci: 3)
        var random = SeededGenerator(seed: testSeed("testAKilledUpgradeLeavesTheStoreWhole"))
        let pristine = try CLIFixture()
        try writeVersion1Store(at: pristine.storeURL, count: count)
        let bytes = try Data(contentsOf: pristine.storeURL)
        XCTAssertFalse(FileManager.default.fileExists(atPath: pristine.storeURL.path + "-wal"), "checkpointed on close")

        // How long a whole upgrade takes, to kill within it.
        let timed = try CLIFixture()
        try FileManager.default.createDirectory(at: timed.storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: timed.storeURL)
        let start = Date()
        XCTAssertEqual(try timed.run(["list", "--incomplete", "--search", "nothing matches this"]).status, 0)
        let duration = Date().timeIntervalSince(start)

        var outcomes: [String: Int] = [:]
        for _ in 0..<rounds {
            let fixture = try CLIFixture()
            try FileManager.default.createDirectory(at: fixture.storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: fixture.storeURL)
            let process = Process()
            process.executableURL = try XCTUnwrap(TasksBinary.url)
            process.arguments = ["list", "--incomplete", "--search", "nothing matches this"]
            process.environment = fixture.environment()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: Double.random(in: 0...(duration * 1.1), using: &random))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            outcomes[try checkWhole(fixture.storeURL, count: count), default: 0] += 1
        }
        print("testAKilledUpgradeLeavesTheStoreWhole outcomes: \(outcomes), upgrade \(Int(duration * 1000)) ms")
    }

    /// "version 1" or "upgraded" after checking the store holds `count` tasks either way, and
    /// reopens (upgrading if needed) with every one.
    private func checkWhole(_ url: URL, count: Int) throws -> String {
        var outcome = "upgraded"
        do {
            let container = try PersistentContainer(model: try TaskModelV1.makeModel(), store: .sqlite(url))
            XCTAssertEqual(try container.newContext().count(for: FetchRequest<TaskModelV1.TaskItem>()), count)
            outcome = "version 1"
        } catch let error as PersistError where error.code == .incompatibleModel {
            outcome = "upgraded"
        }
        let store = try TaskStore(url: url)
        XCTAssertEqual(store.upgrade == nil, outcome == "upgraded", outcome)
        XCTAssertEqual(try store.count(), count)
        XCTAssertEqual(try store.tag(named: "errands")?.tasks.count, (count + 2) / 3)
        return outcome
    }
}
