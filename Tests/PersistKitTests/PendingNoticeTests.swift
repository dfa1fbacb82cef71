import XCTest
@testable import PersistKit

/// The pending notice on its own: each object reported once per notice, an insertion or a
/// deletion covering its updates, cancelled entries left out, updates' slots combined,
/// deletions in the order queued, and an empty queue after `take()`.
final class PendingNoticeTests: XCTestCase {
    private let entity = EntityDescription(name: "E", objectClass: ManagedObject.self, isClassBacked: false,
                                           attributes: [], valueTypes: [], uniquenessConstraints: [])

    private func object() -> ManagedObject { ManagedObject(entity: entity, insertInto: nil) }

    func testEachObjectOnceWithTheRightKind() {
        var notice = PendingNotice()
        XCTAssertTrue(notice.isEmpty)
        let inserted = object(), updated = object(), deleted = object(), insertedThenCancelled = object()
        notice.queueInsert(inserted)
        notice.queueInsert(inserted)
        notice.queueUpdate(inserted, slot: 0)             // covered by the insertion
        notice.queueUpdate(updated, slot: 1)
        notice.queueUpdate(updated, slots: SlotSet([2, 3]))
        notice.queueUpdate(deleted, slot: 0)
        notice.queueDelete(deleted)                      // covers its update
        notice.queueInsert(insertedThenCancelled)
        XCTAssertTrue(notice.cancelInsert(insertedThenCancelled))
        XCTAssertFalse(notice.cancelInsert(insertedThenCancelled), "cancelled once only")
        XCTAssertFalse(notice.isEmpty)
        let changes = notice.take()
        XCTAssertEqual(changes.inserted.map(ObjectIdentifier.init), [ObjectIdentifier(inserted)])
        XCTAssertEqual(changes.deleted.map(ObjectIdentifier.init), [ObjectIdentifier(deleted)])
        XCTAssertEqual(changes.updated.map { ObjectIdentifier($0.object) }, [ObjectIdentifier(updated)])
        XCTAssertEqual(changes.updated.first?.keys, ChangedKeys(entity: entity, slots: SlotSet([1, 2, 3])))
        XCTAssertTrue(notice.isEmpty, "take() leaves the queue empty")
        XCTAssertFalse(inserted.insertUnprocessed, "a reported insertion is not pending any more")
    }

    func testDeletionsInQueuedOrderWithCancellations() {
        var notice = PendingNotice()
        let objects = (0..<5).map { _ in object() }
        notice.reserveDeletes(5)
        for object in objects { notice.queueDelete(object) }
        XCTAssertTrue(notice.cancelDelete(objects[1]))
        XCTAssertFalse(notice.cancelDelete(objects[1]))
        notice.queueUpdate(objects[1], slot: 0)
        notice.queueDelete(objects[3])                   // queued twice: reported once
        let changes = notice.take()
        XCTAssertEqual(changes.deleted.map(ObjectIdentifier.init), [0, 2, 3, 4].map { ObjectIdentifier(objects[$0]) })
        XCTAssertEqual(changes.updated.map { ObjectIdentifier($0.object) }, [ObjectIdentifier(objects[1])])
    }

    func testCancelledUpdateAndDiscard() {
        var notice = PendingNotice()
        let a = object(), b = object()
        notice.queueUpdate(a, slot: 0)
        notice.cancelUpdate(a)
        notice.queueInsert(b)
        notice.queueDeletedKeys([4, 5], of: "E")
        notice.queueChangedBackLists(a, [0: [1, 2]])
        notice.invalidateAll()
        XCTAssertEqual(notice.changedBackLists.count, 1)
        notice.discard()
        XCTAssertTrue(notice.changedBackLists.isEmpty, "a reset forgets the lists to compare")
        XCTAssertTrue(notice.isEmpty)
        XCTAssertFalse(b.insertUnprocessed)
        notice.queueDeletedKeys([9], of: "E")
        let changes = notice.take()
        XCTAssertEqual(changes.deletedKeys, ["E": [9]])
        XCTAssertFalse(changes.invalidatedAll)
        XCTAssertTrue(changes.updated.isEmpty)
    }

    func testChangedBackListsAreTakenOnce() {
        var notice = PendingNotice()
        let a = object(), b = object()
        notice.queueChangedBackLists(a, [0: [1]])
        notice.queueChangedBackLists(b, [1: []])
        XCTAssertFalse(notice.isEmpty)
        XCTAssertEqual(notice.takeChangedBackLists().map { ObjectIdentifier($0.object) }, [ObjectIdentifier(a), ObjectIdentifier(b)])
        XCTAssertTrue(notice.takeChangedBackLists().isEmpty)
        XCTAssertTrue(notice.isEmpty)
    }
}
