import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Saves and batch inserts write new rows a chunk per statement, letting SQLite pick the keys
/// when they follow the table's largest: every row still gets the key PersistKit assigned, and
/// a row SQLite refuses is named as before, with nothing written.
final class ChunkedRowInsertTests: XCTestCase {
    private func container(_ url: URL) throws -> PersistentContainer {
        try PersistentContainer(model: ManagedObjectModel(entities: graphEntities), store: .sqlite(url))
    }

    /// Random saves of 0 to 100 tasks (across chunk sizes, with to-ones to projects of the same
    /// save), deleting the newest tasks now and then so the table's largest key falls behind
    /// the keys handed out: a new context reads each task at its object's key, with its values.
    func testRowsGetTheirAssignedKeysAcrossChunks() throws {
        let seed = testSeed("ChunkedRowInsertTests.testRowsGetTheirAssignedKeysAcrossChunks")
        let rounds = testSize("ChunkedRowInsertTests", full: 40, ci: 15)
        var rng = SeededGenerator(seed: seed)
        let directory = TemporaryDirectory()
        let url = directory.file("chunks.sqlite")
        let container = try container(url)
        let context = container.newContext()
        var expected: [Int64: (title: String, project: String?)] = [:]
        var largestKey: Int64 = 0
        for round in 0..<rounds {
            let count = [0, 1, 31, 32, 33, 64, 65, Int.random(in: 2...100, using: &rng)].randomElement(using: &rng) ?? 1
            let projects = (0..<Int.random(in: 0...2, using: &rng)).map { index in
                let project = GProject(context: context)
                project.name = "p\(round)-\(index)"
                return project
            }
            let tasks = (0..<count).map { index in
                let task = GTask(context: context)
                task.title = "t\(round)-\(index)"
                task.project = projects.isEmpty || Bool.random(using: &rng) ? nil : projects.randomElement(using: &rng)
                return task
            }
            try context.save()
            for task in tasks {
                let key = try XCTUnwrap(task.objectID.primaryKey, "seed \(seed)")
                XCTAssertGreaterThan(key, largestKey, "seed \(seed), round \(round): a key was used again")
                expected[key] = (task.title, task.project?.name)
            }
            largestKey = max(largestKey, tasks.compactMap(\.objectID.primaryKey).max() ?? 0)
            if Bool.random(using: &rng), let newest = expected.keys.max() {
                // The table's largest key falls behind: the next save's keys do not follow it.
                for key in expected.keys where key > newest - Int64.random(in: 0...40, using: &rng) {
                    let task = try context.existingObject(GTask.self, primaryKey: key)
                    context.delete(task)
                    expected[key] = nil
                }
                try context.save()
            }
        }
        let reader = container.newContext()
        let stored = try reader.fetch(FetchRequest<GTask>())
        XCTAssertEqual(stored.count, expected.count, "seed \(seed)")
        for task in stored {
            let key = try XCTUnwrap(task.objectID.primaryKey)
            XCTAssertEqual(task.title, expected[key]?.title, "seed \(seed), key \(key)")
            XCTAssertEqual(task.project?.name, expected[key]?.project, "seed \(seed), key \(key)")
        }
    }

    /// A row a trigger refuses in the middle of a chunk: the batch insert names its index, the
    /// save fails, nothing is written, and the context keeps its changes.
    func testARefusedRowInAChunkIsNamedAndNothingIsWritten() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("refused.sqlite")
        let container = try container(url)
        let context = container.newContext()
        let first = GTask(context: context)
        first.title = "first"
        try context.save()
        let raw = try SQLiteConnection(path: url.path, configuration: .init(synchronous: .full, busyTimeout: 5))
        try raw.execute("CREATE TRIGGER refuse BEFORE INSERT ON GTask WHEN NEW.title = 'bad' BEGIN SELECT RAISE(ABORT, 'bad title'); END")

        let rows: [[String: Any]] = (0..<100).map { ["title": $0 == 70 ? "bad" : "row \($0)"] }
        expectError(try context.execute(BatchInsertRequest<GTask>(objects: rows)), .constraintViolation) { error in
            XCTAssertTrue(error.message.contains("index 70"), error.message)
            XCTAssertTrue(error.message.contains("bad title"), error.message)
        }
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<GTask>()), 1)

        let tasks = (0..<100).map { index in
            let task = GTask(context: context)
            task.title = index == 45 ? "bad" : "task \(index)"
            return task
        }
        expectError(try context.save(), .constraintViolation) { error in
            XCTAssertTrue(error.message.contains("bad title"), error.message)
        }
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<GTask>()), 1, "nothing written")
        XCTAssertEqual(context.insertedObjects.count, 100, "the context keeps its changes")
        tasks[45].title = "fixed"
        try context.save()
        let reader = container.newContext()
        XCTAssertEqual(try reader.count(for: FetchRequest<GTask>()), 101)
        for task in tasks {
            let stored = try XCTUnwrap(reader.existingObject(with: task.objectID) as? GTask)
            XCTAssertEqual(stored.title, task.title)
        }
    }
}
