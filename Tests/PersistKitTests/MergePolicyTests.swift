import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Saves of an object that another context changed since it was read: merged key by key (no
/// false conflicts), and keys changed on both sides settled by the merge policy.
final class MergePolicyTests: XCTestCase {
    private static let policies: [MergePolicy] = [.error, .objectTrump, .storeTrump, .rollback]

    /// Saves a task and returns its ID.
    private func saveTask(_ container: PersistentContainer, name: String = "original", notes: String? = "n0",
                          count: Int = 0) throws -> ObjectID {
        let context = container.newContext()
        let task = TestTask(context: context)
        task.name = name
        task.notes = notes
        task.count = count
        try context.save()
        return task.objectID
    }

    private func load(_ context: ManagedObjectContext, _ id: ObjectID) throws -> TestTask {
        try XCTUnwrap(try context.existingObject(with: id) as? TestTask)
    }

    private func stored(_ container: PersistentContainer, _ id: ObjectID) throws -> TestTask {
        try load(container.newContext(), id)
    }

    // MARK: No false conflicts

    /// Two contexts change different attributes of one object: both save (under every
    /// policy), the row has both changes, and the second context's object shows both.
    func testDifferentKeysChangedOnBothSidesBothSave() {
        for policy in Self.policies {
            forEachStore { container, kind in
                let id = try saveTask(container)
                let one = container.newContext(), two = container.newContext()
                two.mergePolicy = policy
                let x1 = try load(one, id), x2 = try load(two, id)
                x1.name = "renamed by one"
                x2.notes = "noted by two"
                x2.count = 7
                try one.save()
                XCTAssertNoThrow(try two.save(), "\(kind) \(policy): different keys are no conflict")

                let row = try stored(container, id)
                XCTAssertEqual(row.name, "renamed by one", "\(kind) \(policy)")
                XCTAssertEqual(row.notes, "noted by two", "\(kind) \(policy)")
                XCTAssertEqual(row.count, 7, "\(kind) \(policy)")
                XCTAssertEqual(x2.name, "renamed by one", "\(kind) \(policy): the saving object takes the other side's key")
                XCTAssertFalse(two.hasChanges, "\(kind) \(policy)")

                // Both can go on saving: each knows the row's version now.
                x2.count = 8
                XCTAssertNoThrow(try two.save(), "\(kind) \(policy)")
                _ = try one.fetch(FetchRequest<TestTask>())
                XCTAssertEqual(x1.count, 8, "\(kind) \(policy)")
                x1.notes = "again"
                XCTAssertNoThrow(try one.save(), "\(kind) \(policy)")
            }
        }
    }

    /// Both sides change one key, even to the same value: a conflict. Two read-modify-writes
    /// of a counter write the same number; merging them would lose an increment.
    func testTheSameKeyChangedOnBothSidesIsAConflictEvenToTheSameValue() {
        forEachStore { container, kind in
            let id = try saveTask(container, count: 5)
            let one = container.newContext(), two = container.newContext()
            let x1 = try load(one, id), x2 = try load(two, id)
            x1.count += 1
            x2.count += 1
            try one.save()
            expectError(try two.save(), .conflict, "\(kind)") { error in
                XCTAssertEqual(error.attribute, "count")
                XCTAssertTrue(error.problems.first?.contains("count: 6 in the store, 6 here (read as 5)") ?? false, "\(error.problems)")
            }
            two.refresh(x2, mergeChanges: false)
            x2.count += 1
            try two.save()
            XCTAssertEqual(try stored(container, id).count, 7, "\(kind): both increments count")
        }
    }

    /// A controller on the saving context hears of the keys the merge brought in.
    func testObserversHearOfTheKeysAMergeBroughtIn() {
        forEachStore { container, kind in
            let id = try saveTask(container)
            let one = container.newContext(), two = container.newContext()
            two.automaticallyMergesChanges = false   // so the save, not a merge, brings the name
            let x1 = try load(one, id), x2 = try load(two, id)
            var notices: [ContextChanges] = []
            let token = two.addObserver { notices.append($0) }
            x1.name = "from one"
            try one.save()
            x2.count = 5
            try two.save()
            let keys = notices.flatMap(\.updated).filter { $0.object === x2 }.map(\.keys.names)
            XCTAssertTrue(keys.contains { $0.contains("name") }, "\(kind): the merged name is reported: \(keys)")
            XCTAssertEqual(x2.name, "from one")
            token.cancel()
        }
    }

    // MARK: Keys changed on both sides

    func testErrorPolicyListsObjectsKeysStoredAndLocalValues() {
        forEachStore { container, kind in
            let a = try saveTask(container, name: "a", count: 1)
            let b = try saveTask(container, name: "b", count: 1)
            let one = container.newContext(), two = container.newContext()
            let (a1, b1) = (try load(one, a), try load(one, b))
            let (a2, b2) = (try load(two, a), try load(two, b))
            a1.count = 10
            b1.count = 20
            try one.save()
            a2.count = 11
            b2.count = 21
            b2.notes = "also here"
            expectError(try two.save(), .conflict, "\(kind)") { error in
                XCTAssertEqual(Set(error.objectIDs), [a, b], "both objects listed")
                XCTAssertEqual(error.attribute, "count", "the one key in conflict")
                XCTAssertEqual(error.entity, "Task")
                XCTAssertEqual(error.problems.count, 2, "one problem per object and key: \(error.problems)")
                let text = error.problems.joined(separator: "\n")
                for expected in ["count: 10 in the store, 11 here (read as 1)", "count: 20 in the store, 21 here (read as 1)"] {
                    XCTAssertTrue(text.contains(expected), "\(kind): \(expected) in \(text)")
                }
                XCTAssertTrue(error.message.contains("also changed here: notes"), error.message)
                XCTAssertNotNil(error.store)
            }
            XCTAssertEqual(try stored(container, a).count, 10, "\(kind): nothing written")
            XCTAssertEqual(try stored(container, b).notes, "n0", "\(kind): not even the keys without conflict")
            XCTAssertTrue(two.hasChanges)
            XCTAssertEqual(a2.count, 11, "\(kind): the context keeps its changes")
        }
    }

    func testObjectTrumpWritesThisContextsValues() {
        forEachStore { container, kind in
            let id = try saveTask(container)
            let one = container.newContext(), two = container.newContext()
            two.mergePolicy = .objectTrump
            let x1 = try load(one, id), x2 = try load(two, id)
            x1.name = "one"
            x1.notes = "one's notes"
            try one.save()
            x2.name = "two"
            try two.save()
            let row = try stored(container, id)
            XCTAssertEqual(row.name, "two", "\(kind)")
            XCTAssertEqual(row.notes, "one's notes", "\(kind)")
            XCTAssertEqual(x2.notes, "one's notes", "\(kind)")
        }
    }

    func testStoreTrumpKeepsTheStoredValuesAndWritesTheRest() {
        forEachStore { container, kind in
            let id = try saveTask(container)
            let one = container.newContext(), two = container.newContext()
            two.mergePolicy = .storeTrump
            let x1 = try load(one, id), x2 = try load(two, id)
            x1.name = "one"
            try one.save()
            x2.name = "two"
            x2.count = 4
            try two.save()
            let row = try stored(container, id)
            XCTAssertEqual(row.name, "one", "\(kind): the store's value wins")
            XCTAssertEqual(row.count, 4, "\(kind): the other change is written")
            XCTAssertEqual(x2.name, "one", "\(kind): the object takes the stored value")
            XCTAssertEqual(x2.count, 4)
            XCTAssertFalse(two.hasChanges)
        }
    }

    func testRollbackDropsTheChangesOfAnObjectInConflictAndSavesTheRest() {
        forEachStore { container, kind in
            let id = try saveTask(container)
            let other = try saveTask(container, name: "other")
            let one = container.newContext(), two = container.newContext()
            two.mergePolicy = .rollback
            let x1 = try load(one, id), x2 = try load(two, id), y2 = try load(two, other)
            x1.name = "one"
            try one.save()
            x2.name = "two"
            x2.count = 4
            y2.count = 9
            let added = TestTask(context: two)
            added.name = "added"
            try two.save()
            let row = try stored(container, id)
            XCTAssertEqual(row.name, "one", "\(kind)")
            XCTAssertEqual(row.count, 0, "\(kind): every change of the object in conflict is dropped")
            XCTAssertEqual(x2.name, "one", "\(kind)")
            XCTAssertEqual(x2.count, 0, "\(kind)")
            XCTAssertEqual(try stored(container, other).count, 9, "\(kind): other objects are saved")
            XCTAssertEqual(try container.newContext().count(for: FetchRequest<TestTask>(predicate: \.name == "added")), 1)
            XCTAssertFalse(two.hasChanges)
            x2.count = 1
            XCTAssertNoThrow(try two.save(), "\(kind): the object is current again")
        }
    }

    // MARK: Deletions

    func testDeletingAnObjectChangedElsewhere() {
        let expectations: [(MergePolicy, deleted: Bool)] = [(.objectTrump, true), (.storeTrump, false), (.rollback, false)]
        for (policy, deleted) in expectations {
            forEachStore { container, kind in
                let id = try saveTask(container)
                let one = container.newContext(), two = container.newContext()
                two.mergePolicy = policy
                let x1 = try load(one, id), x2 = try load(two, id)
                var notices: [ContextChanges] = []
                let token = two.addObserver { notices.append($0) }
                x1.name = "changed by one"
                try one.save()
                two.delete(x2)
                try two.save()
                let present = try container.newContext().count(for: FetchRequest<TestTask>()) == 1
                XCTAssertEqual(present, !deleted, "\(kind) \(policy)")
                XCTAssertEqual(x2.isDeleted, deleted, "\(kind) \(policy)")
                if !deleted {
                    XCTAssertEqual(x2.name, "changed by one", "\(kind) \(policy): it takes the stored values")
                    XCTAssertTrue(try two.existingObject(with: id) === x2, "\(kind) \(policy): registered again")
                    XCTAssertTrue(notices.last?.inserted.contains { $0 === x2 } ?? false, "\(kind) \(policy): observers get it back")
                    x2.count = 2
                    XCTAssertNoThrow(try two.save(), "\(kind) \(policy)")
                }
                token.cancel()
            }
        }
    }

    func testChangingAnObjectDeletedElsewhere() {
        for policy in Self.policies {
            forEachStore { container, kind in
                let id = try saveTask(container)
                let one = container.newContext(), two = container.newContext()
                two.mergePolicy = policy
                let x1 = try load(one, id), x2 = try load(two, id)
                let added = TestTask(context: two)
                added.name = "added"
                one.delete(x1)
                try one.save()
                x2.name = "too late"
                if policy == .error || policy == .objectTrump {
                    expectError(try two.save(), .conflict, "\(kind) \(policy): a deleted object is never brought back") {
                        XCTAssertEqual($0.objectIDs, [id])
                    }
                } else {
                    XCTAssertNoThrow(try two.save(), "\(kind) \(policy): the deletion stands")
                    XCTAssertTrue(x2.isDeleted)
                    XCTAssertEqual(x2.name, "original", "\(kind) \(policy): the change is dropped")
                    XCTAssertFalse(two.hasChanges)
                    XCTAssertEqual(try container.newContext().fetch(FetchRequest<TestTask>()).map(\.name), ["added"])
                }
            }
        }
    }

    // MARK: Relationships

    /// A to-one is a key like the others: one context moves a task to another project while
    /// another renames it; both save. Both moving it is a conflict naming the relationship.
    func testToOneRelationshipsMergeAsKeys() throws {
        for inMemory in [false, true] {
            let directory = TemporaryDirectory()
            let container = try makeGraphContainer(directory, inMemory: inMemory)
            let setup = container.newContext()
            let home = GProject(context: setup), work = GProject(context: setup), garden = GProject(context: setup)
            home.name = "home"
            work.name = "work"
            garden.name = "garden"
            let task = GTask(context: setup)
            task.title = "mow"
            task.project = home
            try setup.save()

            let one = container.newContext(), two = container.newContext()
            let t1 = try XCTUnwrap(one.existingObject(with: task.objectID) as? GTask)
            let t2 = try XCTUnwrap(two.existingObject(with: task.objectID) as? GTask)
            t1.project = try XCTUnwrap(one.existingObject(with: garden.objectID) as? GProject)
            try one.save()
            t2.title = "mow the lawn"
            XCTAssertNoThrow(try two.save(), "inMemory \(inMemory)")
            XCTAssertEqual(t2.project?.name, "garden", "inMemory \(inMemory): the merge brings the new project")
            let check = container.newContext()
            let stored = try XCTUnwrap(check.existingObject(with: task.objectID) as? GTask)
            XCTAssertEqual(stored.title, "mow the lawn")
            XCTAssertEqual(stored.project?.name, "garden")
            XCTAssertEqual(try XCTUnwrap(check.existingObject(with: garden.objectID) as? GProject).tasks.map(\.title), ["mow the lawn"])

            t1.project = try XCTUnwrap(one.existingObject(with: work.objectID) as? GProject)
            try one.save()
            t2.project = try XCTUnwrap(two.existingObject(with: home.objectID) as? GProject)
            expectError(try two.save(), .conflict, "inMemory \(inMemory)") { error in
                XCTAssertEqual(error.attribute, "project")
                XCTAssertEqual(error.objectIDs, [task.objectID])
            }
        }
    }
}
