import Foundation
import PersistKit
import PersistKitTestSupport
import XCTest

/// The code of the DocC article Working with Large Data, compiled and run
/// (`DocumentationCodeBlocksTests` checks that every block of the article stands here).
enum WorkingWithLargeDataArticle {
    // The article's contacts and buckets are the Contactually example's (ContactuallyEntities.swift).
    typealias ContactBucket = PersistKitTests.ContactBucket
    typealias Contact = PersistKitTests.Contact

    final class TaskItem: ManagedObject {
        @Attribute var name: String
        @Attribute var notes: String?
        @Attribute var isComplete = false
    }

    /// The article's server: what a cache app downloads.
    struct Server {
        struct Bucket { var name: String }
        struct Person { var name: String; var email: String; var bucket: String }
        var buckets: [Bucket]
        var contacts: [Person]
        var count: Int { contacts.count }
        subscript(index: Int) -> Person { contacts[index] }
    }

    static func iterate(in context: ManagedObjectContext, export: (String, String) -> Void) throws -> ObjectID {
        var request = FetchRequest<Contact>(sortBy: [FetchSortDescriptor(\.name)])
        request.fetchBatchSize = 500
        let contacts = try context.fetchBatched(request)
        print(contacts.count)                   // known at once, no object made
        for contact in contacts {               // a million rows in bounded memory
            export(contact.name, contact.email)
        }
        let id = contacts.objectID(at: 1_000)   // an identity, without making the object
        return id
    }

    static func list(in context: ManagedObjectContext) throws -> (Int, ObjectID?, Contact?) {
        var request = FetchRequest<Contact>(sortBy: [FetchSortDescriptor(\.bucketName), FetchSortDescriptor(\.name)])
        request.fetchBatchSize = 200
        let results = FetchedResultsController(fetchRequest: request, context: context,
                                               sectionNameKeyPath: \.bucketName)
        try results.performFetch()                                  // reads keys and sort values, makes no object
        let count = results.sections[0].numberOfObjects            // counts, makes no object
        let id = results.objectID(at: IndexPath(item: 0, section: 1))   // makes no object
        let first = results.object(at: IndexPath(item: 0, section: 1)) // makes that row's batch of 200
        return (count, id, first)
    }

    static func batchInsert(in context: ManagedObjectContext, server: Server) throws {
        let buckets = try context.execute(BatchInsertRequest<ContactBucket>(objects: [["name": "Friends"], ["name": "Work"]]))
        let friends = buckets.objectIDs[0]
        try context.execute(BatchInsertRequest<Contact>(objects: [
            ["name": "Ann", "email": "ann@example.com", "bucketName": "Friends", "bucket": friends],
            ["name": "Bob", "email": "bob@example.com", "bucketName": "Friends", "bucket": friends],
        ]))

        var next = 0
        try context.execute(BatchInsertRequest<Contact> { contact in
            guard next < server.count else { return true }     // true: done, this object is not inserted
            contact.name = server[next].name
            contact.email = server[next].email
            contact.bucketName = server[next].bucket
            next += 1
            return false
        })
    }

    static func batchUpdateAndDelete(in context: ManagedObjectContext) throws -> (BatchResult, BatchResult) {
        let done = try context.execute(BatchUpdateRequest<TaskItem>(predicate: \.isComplete == true,
                                                                    propertiesToUpdate: ["notes": nil]))
        let wiped = try context.execute(BatchDeleteRequest<ContactBucket>())   // every bucket and, by cascade, its contacts
        print(wiped.objectIDs.count)
        return (done, wiped)
    }

    final class Attachment: ManagedObject {
        @Attribute var name: String
        @Attribute(.externalStorage) var contents: Data                        // above 100 KB: a file
        @Attribute(.externalStorage(threshold: 16_384)) var preview: Data?    // above 16 KB: a file
    }

    static func export(_ context: ManagedObjectContext, to exportFolder: URL) throws {
        let attachments = try context.fetch(FetchRequest<Attachment>(sortBy: [FetchSortDescriptor(\.name)]))
        for attachment in attachments {          // no file read yet
            try attachment.contents.write(to: exportFolder.appendingPathComponent(attachment.name))
            context.refresh(attachment, mergeChanges: false)   // its bytes let go
        }
    }

    static func read(_ attachment: Attachment, show: (Data?) -> Void) throws {
        do {
            let contents = try attachment.value(forKey: "contents") as? Data
            show(contents)
        } catch let error as PersistError where error.code == .externalDataUnavailable {
            print(error)   // "The value of Attachment.contents of persistkit://... is stored outside the database, and its file ... is missing"
        }
    }

    static func reload(_ context: ManagedObjectContext, from server: Server, listContext: ManagedObjectContext) throws {
        try context.execute(BatchDeleteRequest<ContactBucket>())      // the cascade takes the contacts
        let buckets = try context.execute(BatchInsertRequest<ContactBucket>(objects: server.buckets.map { ["name": $0.name] }))
        let bucketIDs = Dictionary(uniqueKeysWithValues: zip(server.buckets.map(\.name), buckets.objectIDs))
        try context.execute(BatchInsertRequest<Contact>(objects: server.contacts.map {
            ["name": $0.name, "email": $0.email, "bucketName": $0.bucket, "bucket": bucketIDs[$0.bucket]]
        }))
        listContext.processPendingChanges()   // its controllers report the reload as one change set
    }
}

final class WorkingWithLargeDataArticleTests: XCTestCase {
    private typealias Article = WorkingWithLargeDataArticle

    func testTheArticleRuns() throws {
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: [Article.ContactBucket.self, Article.Contact.self, Article.TaskItem.self])
        let container = try PersistentContainer(model: model, store: .sqlite(directory.file("contacts.sqlite")))
        let context = container.newContext()
        let people = (0..<1_001).map { Article.Server.Person(name: "p\($0)", email: "p\($0)@example.com", bucket: "Work") }
        try Article.batchInsert(in: context, server: Article.Server(buckets: [], contacts: people))
        var exported = 0
        let id = try Article.iterate(in: context) { _, _ in exported += 1 }
        XCTAssertEqual(exported, 1_003)
        XCTAssertFalse(id.isTemporary)
        let (count, rowID, first) = try Article.list(in: context)
        XCTAssertEqual(count, 2, "Ann and Bob are Friends")
        XCTAssertEqual(rowID, first?.objectID)

        let done = Article.TaskItem(context: context)
        done.name = "done"
        done.notes = "a note"
        done.isComplete = true
        try context.save()
        let (updated, wiped) = try Article.batchUpdateAndDelete(in: context)
        XCTAssertEqual(updated.objectIDs, [done.objectID])
        XCTAssertNil(done.notes, "merged at once in the requesting context")
        XCTAssertEqual(wiped.objectIDs.count, 4, "two buckets, and by cascade Ann and Bob")
        try context.execute(BatchDeleteRequest<Article.Contact>())   // the contacts in no bucket

        let listContext = container.newContext()
        let results = FetchedResultsController(fetchRequest: FetchRequest<Article.Contact>(sortBy: [FetchSortDescriptor(\.name)]),
                                               context: listContext)
        try results.performFetch()
        var changes: [ChangeSet] = []
        let token = results.observe { changes.append($0) }
        let server = Article.Server(buckets: [.init(name: "Friends")], contacts: [.init(name: "Cy", email: "cy@example.com", bucket: "Friends")])
        try Article.reload(context, from: server, listContext: listContext)
        XCTAssertEqual(changes.count, 1)
        XCTAssertEqual(results.fetchedObjects.map(\.name), ["Cy"])
        token.cancel()
    }

    func testLargeValuesInFilesRun() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Notes.sqlite")
        let model = try ManagedObjectModel(entities: [Article.Attachment.self])
        let context = try PersistentContainer(model: model, store: .sqlite(url)).newContext()
        for (name, size) in [("a.bin", 200_000), ("b.bin", 1_000)] {
            let attachment = Article.Attachment(context: context)
            attachment.name = name
            attachment.contents = sampleBytes(size)
            attachment.preview = sampleBytes(20_000)
        }
        try context.save()
        XCTAssertEqual(externalFiles(of: url).count, 3, "a.bin's contents and both previews")
        let exportFolder = directory.file("export")
        try FileManager.default.createDirectory(at: exportFolder, withIntermediateDirectories: true)
        let reader = try PersistentContainer(model: model, store: .sqlite(url)).newContext()
        try Article.export(reader, to: exportFolder)
        XCTAssertEqual(try Data(contentsOf: exportFolder.appendingPathComponent("a.bin")), sampleBytes(200_000))
        XCTAssertEqual(try Data(contentsOf: exportFolder.appendingPathComponent("b.bin")), sampleBytes(1_000))
        let attachment = try XCTUnwrap(reader.fetch(FetchRequest<Article.Attachment>(predicate: \.name == "a.bin")).first)
        var shown: Data?
        try Article.read(attachment) { shown = $0 }
        XCTAssertEqual(shown, sampleBytes(200_000))
        for name in externalFiles(of: url) { try FileManager.default.removeItem(at: externalFolder(of: url).appendingPathComponent(name)) }
        reader.refresh(attachment, mergeChanges: false)
        shown = nil
        try Article.read(attachment) { shown = $0 }
        XCTAssertNil(shown, "the error was caught and printed")
    }

    /// A batch delete is merged into the requesting context before `execute` returns: its
    /// objects are deleted and its controllers have reported it (issue 25, item 12: the article
    /// said "at its next processPendingChanges()").
    func testABatchIsMergedIntoTheRequestingContextAtOnce() throws {
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: [Article.ContactBucket.self, Article.Contact.self, Article.TaskItem.self])
        let container = try PersistentContainer(model: model, store: .sqlite(directory.file("contacts.sqlite")))
        let context = container.newContext()
        let task = Article.TaskItem(context: context)
        task.name = "held"
        try context.save()
        let results = FetchedResultsController(fetchRequest: FetchRequest<Article.TaskItem>(sortBy: [FetchSortDescriptor(\.name)]),
                                               context: context)
        try results.performFetch()
        var changes: [ChangeSet] = []
        let token = results.observe { changes.append($0) }
        try context.execute(BatchDeleteRequest<Article.TaskItem>())
        XCTAssertTrue(task.isDeleted)
        XCTAssertEqual(changes.map(\.deletedRows), [[IndexPath(item: 0, section: 0)]])
        XCTAssertEqual(results.fetchedObjects, [])
        token.cancel()
    }
}
