import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The identity map agrees with a Dictionary under random inserts, replacements and removals
/// (keys that collide, zero and negative keys, growth past many sizes).
final class IdentityMapTests: XCTestCase {
    func testRandomOperationsAgreeWithDictionary() {
        let seed = testSeed(#function)
        var rng = SeededGenerator(seed: seed)
        let entity = EntityDescription(name: "E", objectClass: ManagedObject.self, isClassBacked: false,
                                       attributes: [], valueTypes: [], uniquenessConstraints: [])
        let objects = (0..<64).map { _ in ManagedObject(entity: entity, insertInto: nil) }
        var map = IdentityMap()
        var reference: [Int64: ManagedObject] = [:]
        for step in 0..<50_000 {
            let key = Int64.random(in: -20...3_000, using: &rng) * (Bool.random(using: &rng) ? 1 : 1_024)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                let object = objects.randomElement(using: &rng) ?? objects[0]
                map[key] = object
                reference[key] = object
            case 5..<8:
                XCTAssertTrue(map.removeValue(forKey: key) === reference.removeValue(forKey: key), "seed \(seed) step \(step)")
            default:
                XCTAssertTrue(map[key] === reference[key], "seed \(seed) step \(step)")
            }
            if step % 5_000 == 0 {
                XCTAssertEqual(map.count, reference.count, "seed \(seed) step \(step)")
                XCTAssertEqual(Set(map.allKeys), Set(reference.keys), "seed \(seed) step \(step)")
                XCTAssertEqual(map.maxKey, reference.keys.max() ?? .min, "seed \(seed) step \(step)")
                for (key, object) in reference { XCTAssertTrue(map[key] === object, "seed \(seed) key \(key)") }
            }
        }
        map.reserveCapacity(100_000)
        for (key, object) in reference { XCTAssertTrue(map[key] === object) }
        XCTAssertEqual(map.values.count, reference.count)

        // Drained but as large (a context whose every object was replaced): each object handed
        // over once, stale keys in the table never found, and it fills again.
        var drained: [ObjectIdentifier: Int] = [:]
        map.drain { drained[ObjectIdentifier($0), default: 0] += 1 }
        var expected: [ObjectIdentifier: Int] = [:]
        for object in reference.values { expected[ObjectIdentifier(object), default: 0] += 1 }
        XCTAssertEqual(drained, expected, "seed \(seed)")
        XCTAssertTrue(map.isEmpty)
        XCTAssertEqual(map.maxKey, .min)
        for key in reference.keys { XCTAssertNil(map[key], "key \(key) after drain") }
        for (key, object) in reference { map[key] = object }
        XCTAssertEqual(map.count, reference.count)
        for (key, object) in reference { XCTAssertTrue(map[key] === object) }
    }

    /// `insertNew` (a fetch into a context holding none of the entity) agrees with entering
    /// the same objects one by one, including keys that collide in the table.
    func testInsertNewAgreesWithDictionary() {
        let seed = testSeed(#function)
        var rng = SeededGenerator(seed: seed)
        let entity = EntityDescription(name: "E", objectClass: ManagedObject.self, isClassBacked: false,
                                       attributes: [], valueTypes: [], uniquenessConstraints: [])
        var keys = Set<Int64>()
        while keys.count < 5_000 { keys.insert(Int64.random(in: -100...1_000_000, using: &rng) * 1_024) }
        let objects = keys.map { key in
            let object = ManagedObject(entity: entity, insertInto: nil)
            object.objectID = ObjectID(entityName: "E", storeIdentifier: "S", key: key, isTemporary: false)
            return object
        }
        var map = IdentityMap()
        XCTAssertNil(map.insertNew(Array(objects.prefix(10))))
        XCTAssertNil(map.insertNew(Array(objects.dropFirst(10))))
        XCTAssertEqual(map.count, objects.count, "seed \(seed)")
        for object in objects { XCTAssertTrue(map[object.objectID.key] === object, "seed \(seed)") }
        XCTAssertNil(map[-1])
        for object in objects.prefix(2_500) { map.removeValue(forKey: object.objectID.key) }
        for object in objects.dropFirst(2_500) { XCTAssertTrue(map[object.objectID.key] === object, "seed \(seed)") }
    }

    /// Rows of a damaged store may repeat a primary key: a key met again (in the batch or in
    /// the map, `Int64.min` too) is not added a second time, which would leave an entry that no
    /// removal finds (a freed object in the map), and the insertion says which object it was.
    func testInsertNewStopsAtARepeatedKey() {
        let entity = EntityDescription(name: "E", objectClass: ManagedObject.self, isClassBacked: false,
                                       attributes: [], valueTypes: [], uniquenessConstraints: [])
        func object(_ key: Int64) -> ManagedObject {
            let object = ManagedObject(entity: entity, insertInto: nil)
            object.objectID = ObjectID(entityName: "E", storeIdentifier: "S", key: key, isTemporary: false)
            return object
        }
        for repeated in [Int64(0), 7, .min] {
            let objects = [object(repeated), object(3), object(repeated), object(9)]
            var map = IdentityMap()
            XCTAssertTrue(map.insertNew(objects) === objects[2], "key \(repeated)")
            XCTAssertEqual(map.count, 2, "key \(repeated)")
            XCTAssertTrue(map[repeated] === objects[0])
            XCTAssertNil(map[9])
            XCTAssertTrue(map.remove(repeated, ifIdenticalTo: objects[0]))
            XCTAssertFalse(map.remove(repeated, ifIdenticalTo: objects[2]))
            XCTAssertNil(map[repeated])
            let later = object(3)
            XCTAssertTrue(map.insertNew([object(11), later]) === later, "a key the map holds")
        }
    }

    /// A fresh context's fetch registers every object it returns: looking one up, or fetching
    /// again, gives the same instance.
    func testFetchIntoFreshContextRegistersEveryObject() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory)
        let writer = container.newContext()
        for index in 0..<300 {
            let task = TestTask(context: writer)
            task.name = "t\(index)"
        }
        try writer.save()
        let context = container.newContext()
        let tasks = try context.fetch(FetchRequest<TestTask>())
        XCTAssertEqual(tasks.count, 300)
        XCTAssertEqual(context.registeredObjects.count, 300)
        for task in tasks { XCTAssertTrue(try context.existingObject(with: task.objectID) === task) }
        let again = try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.name)]))
        XCTAssertEqual(Set(again.map(ObjectIdentifier.init)), Set(tasks.map(ObjectIdentifier.init)))
    }

    /// A save registers the objects it inserted that something else holds, and lets the others
    /// go: they are freed, and reading one again makes a new instance with the saved values.
    func testSaveRegistersOnlyHeldInserts() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory)
        let context = container.newContext()
        var held: [TestTask] = []
        weak var dropped: TestTask?
        do {
            for index in 0..<10 {
                let task = TestTask(context: context)
                task.name = "t\(index)"
                if index % 3 == 0 { held.append(task) }
                if index == 4 { dropped = task }
            }
            try context.save()
        }
        XCTAssertNil(dropped, "an inserted object nothing held outlived the save")
        XCTAssertEqual(Set(context.registeredObjects.map(ObjectIdentifier.init)), Set(held.map(ObjectIdentifier.init)))
        for task in held {
            XCTAssertFalse(task.objectID.isTemporary)
            XCTAssertTrue(try context.existingObject(with: task.objectID) === task)
        }
        let reread = try XCTUnwrap(try context.fetch(FetchRequest<TestTask>(predicate: \.name == "t4")).first)
        XCTAssertFalse(reread.objectID.isTemporary)
        XCTAssertTrue(try context.existingObject(with: reread.objectID) === reread)
        XCTAssertEqual(try context.fetch(FetchRequest<TestTask>()).count, 10)
    }
}
