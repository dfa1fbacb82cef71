import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The object registry on its own: one `EntityObjects` per entity, saved objects found by
/// entity and key, inserts kept in order with their count and temporary keys (checked against
/// a plain model under generated inserts and drops), and the ID scopes.
final class ObjectRegistryTests: XCTestCase {
    private func entity(_ name: String) -> EntityDescription {
        EntityDescription(name: name, objectClass: ManagedObject.self, isClassBacked: false,
                          attributes: [], valueTypes: [], uniquenessConstraints: [])
    }

    func testSavedObjectsByEntityAndKey() {
        let tasks = entity("Task"), projects = entity("Project")
        var registry = ObjectRegistry()
        XCTAssertNil(registry.held(tasks))
        let objects = registry.objects(of: tasks)
        XCTAssertTrue(registry.objects(of: tasks) === objects, "one EntityObjects per entity")
        XCTAssertTrue(registry.held(tasks) === objects)
        XCTAssertNil(registry.held(projects))
        let task = ManagedObject(entity: tasks, insertInto: nil)
        objects.byKey.insert(task, for: 7)
        XCTAssertTrue(registry.object(of: tasks, key: 7) === task)
        XCTAssertNil(registry.object(of: tasks, key: 8))
        XCTAssertNil(registry.object(of: projects, key: 7), "keys are per entity")
        registry.objects(of: projects).byKey.insert(ManagedObject(entity: projects, insertInto: nil), for: 7)
        XCTAssertEqual(registry.heldCount, 2)
        XCTAssertEqual(registry.allHeld.count, 2)
        registry.forgetSaved()
        XCTAssertNil(registry.held(tasks))
        XCTAssertEqual(registry.heldCount, 0)
        withExtendedLifetime(task) {}
    }

    /// Inserts noted and dropped at random: the count is always the number of entries still
    /// inserted, the order is insertion order, and a temporary key finds its object only while
    /// it is inserted.
    func testInsertsAgreeWithAModel() {
        let seed = testSeed(#function)
        var rng = SeededGenerator(seed: seed)
        let tasks = entity("Task")
        var registry = ObjectRegistry()
        var model: [(object: ManagedObject, key: Int64)] = []   // every insert noted, in order
        var nextKey: Int64 = 1
        for step in 0..<3_000 {
            if model.contains(where: { $0.object.insertedFlag }) && Int.random(in: 0..<3, using: &rng) == 0 {
                let live = model.filter { $0.object.insertedFlag }
                let (object, key) = live.randomElement(using: &rng) ?? live[0]
                object.insertedFlag = false
                registry.noteInsertDropped(temporaryKey: key)
            } else {
                let object = ManagedObject(entity: tasks, insertInto: nil)
                object.insertedFlag = true
                registry.noteInsert(object, temporaryKey: nextKey)
                model.append((object, nextKey))
                nextKey += 1
            }
            let live = model.filter { $0.object.insertedFlag }
            XCTAssertEqual(registry.insertedCount, live.count, "seed \(seed) step \(step)")
            XCTAssertEqual(registry.hasInserts, !live.isEmpty, "seed \(seed) step \(step)")
            if step % 300 == 0 {
                XCTAssertEqual(registry.insertedObjects.map(ObjectIdentifier.init), live.map { ObjectIdentifier($0.object) },
                               "seed \(seed) step \(step)")
                XCTAssertEqual(registry.insertedOrder.count, model.count, "seed \(seed) step \(step): dropped inserts stay listed")
                for (object, key) in model {
                    XCTAssertTrue(registry.insertedObject(temporaryKey: key) === (object.insertedFlag ? object : nil),
                                  "seed \(seed) step \(step) key \(key)")
                }
            }
        }
        registry.forgetTemporaryKeys()
        XCTAssertNil(registry.insertedObject(temporaryKey: 1))
        XCTAssertEqual(registry.insertedCount, model.filter { $0.object.insertedFlag }.count)
        registry.forgetInserts()
        XCTAssertFalse(registry.hasInserts)
        XCTAssertTrue(registry.insertedOrder.isEmpty)
    }

    func testInsertsWithoutTemporaryKeys() {
        var registry = ObjectRegistry()
        let object = ManagedObject(entity: entity("Task"), insertInto: nil)
        object.insertedFlag = true
        registry.noteInsert(object, temporaryKey: nil)
        XCTAssertNil(registry.insertedObject(temporaryKey: 0), "a model without relationships keeps no temporary keys")
        XCTAssertTrue(registry.insertedObjects.first === object)
        object.insertedFlag = false
        registry.noteInsertDropped(temporaryKey: 5)
        XCTAssertEqual(registry.insertedCount, 0)
        XCTAssertTrue(registry.insertedObjects.isEmpty)
    }

    func testObjectIDScopes() {
        let tasks = entity("Task"), projects = entity("Project")
        var registry = ObjectRegistry()
        let scope = registry.scope(of: tasks, storeIdentifier: "S")
        XCTAssertEqual(registry.scope(of: tasks, storeIdentifier: "S"), scope)
        XCTAssertNotEqual(registry.scope(of: projects, storeIdentifier: "S"), scope)
        XCTAssertEqual(scope.names.entityName, "Task")
        XCTAssertEqual(scope.names.storeIdentifier, "S")
        XCTAssertNil(registry.entity(in: scope), "an entity is found by scope once remembered")
        registry.remember(tasks, for: scope)
        XCTAssertTrue(registry.entity(in: scope) === tasks)
    }
}
