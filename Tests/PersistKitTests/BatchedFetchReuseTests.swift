import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// An entity whose class keeps state of its own beside its row: its objects are never refilled.
final class ScratchNote: ManagedObject {
    @Attribute var text: String
    var scratch: String?
}

/// A batched fetch refills the objects it lets go with the rows it reads next, but only objects
/// nothing else can see: held, weakly held, changed, or carrying state of their own, an object
/// keeps its row.
final class BatchedFetchReuseTests: XCTestCase {
    private func makeTasks(_ count: Int, in context: ManagedObjectContext) throws {
        try context.execute(BatchInsertRequest<GTask>(objects: (0..<count).map { ["title": "t\($0)", "done": $0 % 2 == 0] }))
    }

    private func batched(_ context: ManagedObjectContext, batchSize: Int) throws -> BatchedResults<GTask> {
        var request = FetchRequest<GTask>()
        request.fetchBatchSize = batchSize
        return try context.fetchBatched(request)
    }

    func testOnlyClassesHoldingNothingButTheirRowAreReused() throws {
        let model = try ManagedObjectModel(entities: graphEntities + [ScratchNote.self])
        XCTAssertTrue(try XCTUnwrap(model.entity(for: GTask.self)).reusesObjects, "attributes and relationships only")
        XCTAssertFalse(try XCTUnwrap(model.entity(for: ScratchNote.self)).reusesObjects, "a stored property of its own")
    }

    /// Every object the walk hands out is its row's, registered under its row, and the walk
    /// made far fewer objects than rows.
    func testRefilledObjectsAreTheirNewRows() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        try makeTasks(1_000, in: context)
        var addresses = Set<ObjectIdentifier>()
        for (index, task) in try batched(context, batchSize: 50).enumerated() {
            XCTAssertEqual(task.title, "t\(index)")
            XCTAssertEqual(task.done, index % 2 == 0)
            XCTAssertEqual(task.objectID.primaryKey, Int64(index + 1))
            XCTAssertTrue(context.object(with: task.objectID) === task, "registered under its new row")
            XCTAssertTrue(task.managedObjectContext === context)
            XCTAssertFalse(task.hasChanges)
            addresses.insert(ObjectIdentifier(task))
        }
        XCTAssertLessThanOrEqual(addresses.count, 150, "objects let go are refilled, not made anew")
        XCTAssertLessThanOrEqual(context.registeredObjects.count, 100)
    }

    /// An object the app holds, strongly or weakly, keeps its row; a weak reference never sees
    /// another row's values.
    func testHeldObjectsKeepTheirRows() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        try makeTasks(400, in: context)
        final class Weak { weak var task: GTask?; let title: String; init(_ task: GTask) { self.task = task; title = task.title } }
        var held: [GTask] = []
        var weaklyHeld: [Weak] = []
        for (index, task) in try batched(context, batchSize: 20).enumerated() {
            if index % 7 == 0 { held.append(task) }
            if index % 5 == 0 { weaklyHeld.append(Weak(task)) }
        }
        for task in held {
            XCTAssertEqual(task.title, "t\(Int(task.objectID.primaryKey ?? 0) - 1)")
            XCTAssertTrue(context.object(with: task.objectID) === task)
        }
        for reference in weaklyHeld {
            if let task = reference.task { XCTAssertEqual(task.title, reference.title, "a weak reference saw another row") }
        }
        XCTAssertTrue(weaklyHeld.contains { $0.task == nil }, "objects held only weakly still go")
    }

    /// A changed object is the context's to keep: the walk neither refills nor loses it, and
    /// the save writes its change to its own row.
    func testChangedObjectsAreNotRefilled() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        let context = container.newContext()
        try makeTasks(300, in: context)
        var changedID: ObjectID?
        for (index, task) in try batched(context, batchSize: 25).enumerated() where index == 3 {
            task.title = "changed"
            changedID = task.objectID
        }
        let id = try XCTUnwrap(changedID)
        try context.save()
        let reader = container.newContext()
        let titles = try reader.fetch(FetchRequest<GTask>()).map(\.title)
        XCTAssertEqual(titles.filter { $0 == "changed" }.count, 1)
        XCTAssertEqual(try XCTUnwrap(reader.existingObject(with: id) as? GTask).title, "changed")
        XCTAssertEqual(Set(titles).count, 300)
    }

    /// A reset in the middle of a walk detaches the objects read so far; the rest belong to
    /// the context.
    func testAResetDuringTheWalkLeavesLaterObjectsInTheContext() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        try makeTasks(500, in: context)
        for (index, task) in try batched(context, batchSize: 30).enumerated() {
            if index == 100 { context.reset() }
            if index > 100 {
                XCTAssertTrue(task.managedObjectContext === context)
                XCTAssertTrue(context.object(with: task.objectID) === task)
            }
            XCTAssertEqual(task.title, "t\(index)")
        }
    }

    /// Objects of a class with state of its own are made new for every row.
    func testObjectsWithStateOfTheirOwnAreNotReused() throws {
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: [ScratchNote.self])
        let context = try PersistentContainer(model: model, store: .sqlite(directory.file("notes.sqlite"))).newContext()
        try context.execute(BatchInsertRequest<ScratchNote>(objects: (0..<200).map { ["text": "n\($0)"] }))
        var request = FetchRequest<ScratchNote>()
        request.fetchBatchSize = 10
        for (index, note) in try context.fetchBatched(request).enumerated() {
            XCTAssertNil(note.scratch, "row \(index) carries another row's state")
            XCTAssertEqual(note.text, "n\(index)")
            note.scratch = note.text
        }
    }

    /// Random walks (batch sizes, jumps, holds, weak holds, changes, resets): every object read
    /// is its row's, and every held object still is when the walk ends.
    func testRandomWalksNeverShowAnotherRow() throws {
        let seed = testSeed("BatchedFetchReuseTests.testRandomWalksNeverShowAnotherRow")
        let rounds = testSize("BatchedFetchReuseTests.testRandomWalksNeverShowAnotherRow", full: 40, ci: 12)
        var random = SeededGenerator(seed: seed)
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        let count = 600
        try makeTasks(count, in: container.newContext())
        final class Weak { weak var task: GTask?; init(_ task: GTask) { self.task = task } }
        for round in 0..<rounds {
            let context = container.newContext()
            let results = try batched(context, batchSize: Int.random(in: 1...80, using: &random))
            var held: [(GTask, String)] = []
            var weak: [(Weak, String)] = []
            var changed: [Int64: String] = [:]
            for _ in 0..<Int.random(in: 50...1_500, using: &random) {
                let position = Int.random(in: 0..<10, using: &random) < 8 ? Int.random(in: 0..<count, using: &random) : count - 1
                let task = results[position]
                let key = Int64(position + 1)
                let expected = changed[key] ?? "t\(position)"
                XCTAssertEqual(task.objectID.primaryKey, key, "round \(round), seed \(seed)")
                XCTAssertEqual(task.title, expected, "round \(round), seed \(seed)")
                switch Int.random(in: 0..<40, using: &random) {
                case 0: held.append((task, expected))
                case 1: weak.append((Weak(task), expected))
                case 2:
                    task.title = "c\(position)-\(round)"
                    changed[key] = task.title
                case 3: if changed.isEmpty { context.reset() }
                default: break
                }
            }
            // An object a reset detached keeps the values it had; changes made since were
            // made to its row's new object.
            func expected(_ task: GTask, _ title: String) -> String {
                task.managedObjectContext == nil ? title : changed[task.objectID.primaryKey ?? 0] ?? title
            }
            for (task, title) in held {
                XCTAssertEqual(task.title, expected(task, title), "round \(round), seed \(seed)")
            }
            for (reference, title) in weak {
                if let task = reference.task { XCTAssertEqual(task.title, expected(task, title), "round \(round), seed \(seed)") }
            }
        }
    }
}
