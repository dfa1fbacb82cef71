import XCTest
@testable import PersistKit

/// The change tracker on its own: a saved object's first change takes its snapshot, later
/// ones keep it, inserts are never tracked, and deletions are tracked apart.
final class ChangeTrackerTests: XCTestCase {
    private let entity = EntityDescription(name: "E", objectClass: ManagedObject.self, isClassBacked: false,
                                           attributes: [], valueTypes: [], uniquenessConstraints: [])

    private func saved(_ values: [SQLValue]) -> ManagedObject {
        let object = ManagedObject(entity: entity, insertInto: nil)
        object.storage = ContiguousArray(values)
        return object
    }

    func testTheFirstChangeTakesTheSnapshot() {
        var tracker = ChangeTracker()
        let object = saved([.integer(1), .text("a")])
        XCTAssertTrue(tracker.isEmpty)
        tracker.noteWillChange(object)
        XCTAssertEqual(object.committedStorage.map(Array.init), [.integer(1), .text("a")])
        XCTAssertTrue(tracker.changed[ObjectIdentifier(object)] === object)
        object.storage[0] = .integer(2)
        tracker.noteWillChange(object)
        XCTAssertEqual(object.committedStorage.map(Array.init), [.integer(1), .text("a")], "a later change keeps the first snapshot")
        XCTAssertFalse(tracker.isEmpty)
        tracker.forgetChange(object)
        XCTAssertTrue(tracker.changed.isEmpty)
        tracker.forgetChange(object)   // forgetting twice is harmless
    }

    func testInsertsAreNotTracked() {
        var tracker = ChangeTracker()
        let object = saved([.integer(1)])
        object.insertedFlag = true
        tracker.noteWillChange(object)
        tracker.markChanged(object)
        XCTAssertNil(object.committedStorage)
        XCTAssertTrue(tracker.isEmpty)
    }

    func testMarkChangedTracksWithOrWithoutASnapshot() {
        var tracker = ChangeTracker()
        let fresh = saved([.integer(1)])
        tracker.markChanged(fresh)
        XCTAssertEqual(fresh.committedStorage.map(Array.init), [.integer(1)], "marked: snapshot taken")
        let changed = saved([.integer(2)])
        changed.committedStorage = [.integer(3)]
        tracker.markChanged(changed)
        XCTAssertEqual(changed.committedStorage.map(Array.init), [.integer(3)], "an existing snapshot stays")
        let deletedElsewhere = saved([.integer(4)])
        deletedElsewhere.committedStorage = [.integer(5)]
        tracker.keepChanged(deletedElsewhere)
        XCTAssertEqual(Set(tracker.changed.keys), Set([fresh, changed, deletedElsewhere].map(ObjectIdentifier.init)))
        tracker.forgetChanges()
        XCTAssertTrue(tracker.isEmpty)
    }

    func testDeletions() {
        var tracker = ChangeTracker()
        let a = saved([]), b = saved([])
        tracker.noteDeleted(a)
        XCTAssertTrue(tracker.isPendingDeletion(a))
        XCTAssertFalse(tracker.isPendingDeletion(b))
        XCTAssertFalse(tracker.isEmpty)
        XCTAssertTrue(tracker.changed.isEmpty, "a deletion is not a change")
        tracker.forgetDeletion(b)
        XCTAssertTrue(tracker.isPendingDeletion(a))
        tracker.noteDeleted(b)
        tracker.forgetDeletion(a)
        XCTAssertFalse(tracker.isPendingDeletion(a))
        XCTAssertEqual(tracker.deleted.count, 1)
        tracker.forgetDeletions()
        XCTAssertTrue(tracker.isEmpty)
    }
}
