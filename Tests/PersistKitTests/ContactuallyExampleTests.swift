import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The Contactually pattern, as an app would write it: every launch wipes the cache (100
/// buckets of 100 contacts) with one batch delete, whose cascade takes the contacts, and
/// reloads what the server sends with two batch inserts (buckets, then contacts pointing at
/// them). The contacts list, a results controller sectioned by bucket (and its batched twin),
/// reports exactly what happened, and the graph is whole after every reload.
final class ContactuallyExampleTests: XCTestCase {
    private static let buckets = 100
    private static let contactsPerBucket = 100

    private func container(_ url: URL) throws -> PersistentContainer {
        try PersistentContainer(model: ManagedObjectModel(entities: [ContactBucket.self, Contact.self]), store: .sqlite(url))
    }

    /// What the server sends at a launch: the same buckets, contacts whose names change a little.
    private func serverContacts(launch: Int) -> [(bucket: String, name: String, email: String)] {
        (0..<Self.buckets).flatMap { bucket in
            (0..<Self.contactsPerBucket).map { index in
                let name = "Contact \(String(format: "%03d", (index * 37 + launch * 11) % Self.contactsPerBucket))-\(bucket)"
                return (String(format: "Bucket %02d", bucket), name, "c\(bucket)-\(index)@l\(launch).example")
            }
        }
    }

    /// The app's launch: wipe, reload. Returns the deleted and inserted object IDs.
    private func reload(_ context: ManagedObjectContext, launch: Int) throws -> (deleted: [ObjectID], inserted: [ObjectID]) {
        let wiped = try context.execute(BatchDeleteRequest<ContactBucket>())
        let contacts = serverContacts(launch: launch)
        let names = (0..<Self.buckets).map { String(format: "Bucket %02d", $0) }
        let buckets = try context.execute(BatchInsertRequest<ContactBucket>(objects: names.map { ["name": $0] }))
        let bucketIDs = Dictionary(uniqueKeysWithValues: zip(names, buckets.objectIDs))
        let inserted = try context.execute(BatchInsertRequest<Contact>(objects: contacts.map { contact in
            ["name": contact.name, "email": contact.email, "bucketName": contact.bucket, "bucket": bucketIDs[contact.bucket]]
        }))
        return (wiped.objectIDs, buckets.objectIDs + inserted.objectIDs)
    }

    private func request(batchSize: Int) -> FetchRequest<Contact> {
        var request = FetchRequest<Contact>(sortBy: [FetchSortDescriptor(\.bucketName), FetchSortDescriptor(\.name)])
        request.fetchBatchSize = batchSize
        return request
    }

    func testEveryLaunchWipesAndReloadsTheCache() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("contactually.sqlite")
        let total = Self.buckets * Self.contactsPerBucket
        for launch in 0..<3 {
            let container = try container(url)
            let list = container.newContext()
            let plain = try ResultsWatcher(FetchedResultsController(fetchRequest: request(batchSize: 0), context: list,
                                                                    sectionNameKeyPath: \.bucketName))
            let batched = try ResultsWatcher(FetchedResultsController(fetchRequest: request(batchSize: 200), context: list,
                                                                      sectionNameKeyPath: \.bucketName))
            let before = plain.current
            XCTAssertEqual(before.joined().count, launch == 0 ? 0 : total, "launch \(launch): the cache of the last launch")

            let app = container.newContext()
            let (deleted, inserted) = try reload(app, launch: launch)
            XCTAssertEqual(deleted.count, launch == 0 ? 0 : Self.buckets + total, "buckets and their contacts, by the cascade")
            XCTAssertEqual(inserted.count, Self.buckets + total)
            list.processPendingChanges()

            let message = "launch \(launch)"
            for watcher in [plain, batched] {
                try watcher.check(against: container.newContext(), request(batchSize: 0), section: { $0.bucketName }, message)
                XCTAssertEqual(watcher.changes.count, 1, "one change set for the launch's reload: " + message)
                guard let change = watcher.changes.last else { continue }
                let rows = watcher.insertedAndDeleted(change, old: before)
                XCTAssertEqual(rows.deleted, Set(before.joined()), "every cached contact left: " + message)
                XCTAssertEqual(rows.inserted, Set(inserted.filter { $0.entityName == "Contact" }), "every reloaded contact came: " + message)
                XCTAssertEqual(change.movedRows.count + change.updatedRows.count, 0, message)
                XCTAssertEqual(watcher.current.count, Self.buckets, "a section per bucket: " + message)
            }
            try checkGraph(container.newContext(), launch: launch)
            try checkGraph(list, launch: launch)
        }
    }

    /// Every bucket holds its 100 contacts, each contact its bucket, with the server's values.
    private func checkGraph(_ context: ManagedObjectContext, launch: Int) throws {
        let buckets = try context.fetch(FetchRequest<ContactBucket>(sortBy: [FetchSortDescriptor(\.name)]))
        XCTAssertEqual(buckets.count, Self.buckets)
        for bucket in buckets {
            let contacts = bucket.contacts
            XCTAssertEqual(contacts.count, Self.contactsPerBucket, "\(bucket.name) at launch \(launch)")
            XCTAssertTrue(contacts.allSatisfy { $0.bucket === bucket && $0.bucketName == bucket.name && $0.email.hasSuffix("@l\(launch).example") },
                          "\(bucket.name) at launch \(launch)")
        }
        XCTAssertEqual(try context.count(for: FetchRequest<Contact>(predicate: \.bucketName == "Bucket 07")), Self.contactsPerBucket)
    }
}
