import Foundation
import PersistKitTestSupport
import Synchronization
import XCTest
@testable import PersistKit

/// ObjectID is a plain value (its entity and store interned in a process-wide registry) with
/// the semantics it had as two Strings, a key and a kind.
final class ObjectIDTests: XCTestCase {
    /// A String (or any reference) field would make every copy of an ID retain: caught here.
    func testObjectIDHasNoReferenceCountedField() {
        XCTAssertTrue(_isPOD(ObjectID.self))
    }

    func testIDsOfTwoStoresAndTwoEntitiesWithEqualKeysDiffer() throws {
        let directory = TemporaryDirectory()
        let first = try makeContainer(.sqlite, in: directory, entities: [TestTask.self, Index.self])
        let second = try makeContainer(.sqlite, in: directory, entities: [TestTask.self, Index.self])
        XCTAssertNotEqual(first.storeIdentifier, second.storeIdentifier)
        var ids: [ObjectID] = []
        for container in [first, second] {
            let context = container.newContext()
            let task = TestTask(context: context)
            task.name = "A"
            let index = Index(context: context)
            try context.save()
            XCTAssertEqual(task.objectID.primaryKey, 1)
            XCTAssertEqual(index.objectID.primaryKey, 1)
            XCTAssertEqual(task.objectID.entityName, "Task")
            XCTAssertEqual(task.objectID.storeIdentifier, container.storeIdentifier)
            ids += [task.objectID, index.objectID]
        }
        XCTAssertEqual(Set(ids).count, 4, "\(ids)")
        for (position, id) in ids.enumerated() {
            for (other, otherID) in ids.enumerated() where other != position {
                XCTAssertNotEqual(id, otherID)
            }
        }
        // The same pair named by text is the same ID, with the same hash.
        for id in ids {
            let named = ObjectID(entityName: String(id.entityName), storeIdentifier: String(id.storeIdentifier),
                                 key: 1, isTemporary: false)
            XCTAssertEqual(named, id)
            XCTAssertEqual(named.hashValue, id.hashValue)
        }
    }

    func testTemporaryAndPermanentIDsWithTheSameKeyDiffer() {
        let temporary = ObjectID(entityName: "Task", storeIdentifier: "S", key: 7, isTemporary: true)
        let permanent = ObjectID(entityName: "Task", storeIdentifier: "S", key: 7, isTemporary: false)
        XCTAssertNotEqual(temporary, permanent)
        XCTAssertEqual(Set([temporary, permanent, temporary]).count, 2)
        XCTAssertNil(temporary.primaryKey)
        XCTAssertEqual(permanent.primaryKey, 7)
    }

    func testURIRoundTripFindsTheObject() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory)
        let context = container.newContext()
        let task = TestTask(context: context)
        task.name = "Round trip"
        let temporaryURI = task.objectID.uriRepresentation
        XCTAssertEqual(ObjectID(uriRepresentation: temporaryURI), task.objectID)
        try context.save()
        let uri = task.objectID.uriRepresentation
        XCTAssertEqual(uri.absoluteString, "persistkit://\(container.storeIdentifier)/Task/p1")
        XCTAssertEqual(task.objectID.description, uri.absoluteString)
        let parsed = try XCTUnwrap(ObjectID(uriRepresentation: uri))
        XCTAssertEqual(parsed, task.objectID)
        XCTAssertNotEqual(ObjectID(uriRepresentation: temporaryURI), parsed)
        let other = container.newContext()
        XCTAssertEqual((try other.existingObject(with: parsed) as? TestTask)?.name, "Round trip")
        XCTAssertNil(ObjectID(uriRepresentation: URL(string: "persistkit://S/Task/x1")!))
    }

    func testCodableRoundTripAndTheEarlierEncodedForm() throws {
        // What the synthesized conformance of the String-holding ObjectID wrote.
        let old = #"{"entityName":"Task","isTemporary":false,"key":12,"storeIdentifier":"4E0F4D7A-1C0B-4D8E-9A3C-2B6F1A0E9D11"}"#
        let decoded = try JSONDecoder().decode(ObjectID.self, from: Data(old.utf8))
        XCTAssertEqual(decoded, ObjectID(entityName: "Task", storeIdentifier: "4E0F4D7A-1C0B-4D8E-9A3C-2B6F1A0E9D11", key: 12, isTemporary: false))
        XCTAssertEqual(decoded.entityName, "Task")
        XCTAssertEqual(decoded.primaryKey, 12)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        XCTAssertEqual(String(decoding: try encoder.encode(decoded), as: UTF8.self), old)

        let temporary = ObjectID(entityName: "Note", storeIdentifier: "S", key: 3, isTemporary: true)
        let ids = [temporary, decoded]
        XCTAssertEqual(try JSONDecoder().decode([ObjectID].self, from: JSONEncoder().encode(ids)), ids)
        XCTAssertEqual(try PropertyListDecoder().decode([ObjectID].self, from: PropertyListEncoder().encode(ids)), ids)
        XCTAssertThrowsError(try JSONDecoder().decode(ObjectID.self, from: Data(#"{"entityName":"Task","key":1}"#.utf8)))
    }

    /// Threads interning new pairs at once: one pair always gives equal IDs, two pairs never.
    func testIDsMadeConcurrentlyForNewPairs() {
        let seed = testSeed("testIDsMadeConcurrentlyForNewPairs")
        let threads = 8, rounds = testSize("testIDsMadeConcurrentlyForNewPairs", full: 200, ci: 50)
        let stores = (0..<4).map { _ in UUID().uuidString }
        let pairs = stores.flatMap { store in ["Alpha", "Beta", "Gamma"].map { (entity: $0, store: store) } }
        let made = Mutex<[[ObjectID]]>(Array(repeating: [], count: threads))
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var generator = SeededGenerator(seed: seed &+ UInt64(thread))
            var ids: [ObjectID] = []
            for _ in 0..<rounds {
                // Each thread walks the pairs in its own order, so first uses collide.
                for pair in pairs.shuffled(using: &generator) {
                    ids.append(ObjectID(entityName: pair.entity, storeIdentifier: pair.store, key: 5, isTemporary: false))
                }
            }
            let sorted = ids.sorted { ($0.storeIdentifier, $0.entityName) < ($1.storeIdentifier, $1.entityName) }
            made.withLock { $0[thread] = sorted }
        }
        let all = made.withLock { $0 }.flatMap { $0 }
        XCTAssertEqual(all.count, threads * rounds * pairs.count)
        XCTAssertEqual(Set(all).count, pairs.count)
        for pair in pairs {
            let reference = ObjectID(entityName: pair.entity, storeIdentifier: pair.store, key: 5, isTemporary: false)
            let same = all.filter { $0 == reference }
            XCTAssertEqual(same.count, threads * rounds)
            XCTAssertTrue(same.allSatisfy { $0.entityName == pair.entity && $0.storeIdentifier == pair.store })
        }
    }

    func testLookupsByIDCheckTheStoreAndEntity() throws {
        let directory = TemporaryDirectory()
        let first = try makeContainer(.sqlite, in: directory)
        let second = try makeContainer(.sqlite, in: directory)
        let context = first.newContext()
        let task = TestTask(context: context)
        task.name = "A"
        try context.save()
        let reader = first.newContext()
        XCTAssertTrue(try reader.existingObject(with: task.objectID) === reader.existingObject(with: task.objectID))
        // Another store's ID of the same entity and key, after this store's scope is known.
        let foreign = ObjectID(entityName: "Task", storeIdentifier: second.storeIdentifier, key: 1, isTemporary: false)
        expectError(try reader.existingObject(with: foreign), .objectNotFound) {
            XCTAssertTrue($0.message.contains("another store"), $0.message)
        }
        let unknown = ObjectID(entityName: "NoSuchEntity", storeIdentifier: first.storeIdentifier, key: 1, isTemporary: false)
        expectError(try reader.existingObject(with: unknown), .objectNotFound) {
            XCTAssertTrue($0.message.contains("NoSuchEntity"), $0.message)
        }
        XCTAssertNil(reader.object(with: foreign))
    }
}
