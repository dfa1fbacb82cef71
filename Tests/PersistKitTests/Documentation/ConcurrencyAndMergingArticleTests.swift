import Foundation
import PersistKit
import PersistKitTestSupport
import XCTest

/// The code of the DocC article Concurrency and Merging, compiled and run
/// (`DocumentationCodeBlocksTests` checks that every block of the article stands here).
enum ConcurrencyAndMergingArticle {
    final class TaskItem: ManagedObject {
        override class var entityName: String { "Task" }
        @Attribute var name: String
        @Attribute var isComplete = false
    }

    final class Counter: ManagedObject {
        @Attribute var value = 0
    }

    struct Record: Sendable {
        var name: String
    }

    @MainActor
    static func importInTheBackground(model: ManagedObjectModel, url: URL, records: [Record],
                                      request: FetchRequest<TaskItem>) async throws -> (Int, FetchedResultsController<TaskItem>) {
        let container = try PersistentContainer(model: model, store: .sqlite(url))

        // Import on a background thread…
        let imported = try await container.performBackgroundTask { context in
            for record in records {
                let task = TaskItem(context: context)
                task.name = record.name
            }
            try context.save()
            return records.count
        }

        // …while the main actor's lists stay responsive and update by themselves.
        let results = FetchedResultsController(fetchRequest: request, context: container.viewContext)
        return (imported, results)
    }

    actor Importer {
        private let context: ManagedObjectContext

        init(container: PersistentContainer) {
            context = container.newContext()      // confined to this actor from now on
        }

        func markDone(_ id: ObjectID) throws {
            guard let task = try context.existingObject(with: id) as? TaskItem else { return }
            task.isComplete = true
            try context.save()
        }
    }

    static func increment(_ counterID: ObjectID, in context: ManagedObjectContext) throws {
        while let counter = try context.existingObject(with: counterID) as? Counter {
            counter.value += 1
            do {
                try context.save()
                break
            } catch let error as PersistError where error.code == .conflict {
                context.rollback()      // drop the stale change; the next read sees the stored value
            }
        }
    }

    /// Reads the history of what `change` saves; returns the token it starts from and the one it ends at.
    static func readHistory(of container: PersistentContainer, between change: () throws -> Void) throws -> (HistoryToken?, HistoryToken?) {
        let start = try container.currentHistoryToken()
        var token = try container.currentHistoryToken()      // remember where you are (Codable)
        XCTAssertNoThrow(try change())
        // ... later, or in another process:
        for transaction in try container.history(after: token) {
            guard transaction.author != "sync" else { continue }   // skip your own
            for change in transaction.changes {
                print(change.kind, change.objectID, change.changedKeys)
            }
            token = transaction.token
        }
        return (start, token)
    }
}

final class ConcurrencyAndMergingArticleTests: XCTestCase {
    @MainActor
    func testTheArticleRuns() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("tasks.sqlite")
        let model = try ManagedObjectModel(entities: [ConcurrencyAndMergingArticle.TaskItem.self, ConcurrencyAndMergingArticle.Counter.self])
        let records = [ConcurrencyAndMergingArticle.Record(name: "a"), ConcurrencyAndMergingArticle.Record(name: "b")]
        let request = FetchRequest<ConcurrencyAndMergingArticle.TaskItem>(sortBy: [FetchSortDescriptor(\.name)])
        let (imported, results) = try await ConcurrencyAndMergingArticle.importInTheBackground(model: model, url: url, records: records,
                                                                                             request: request)
        XCTAssertEqual(imported, 2)
        try results.performFetch()
        XCTAssertEqual(results.fetchedObjects.map(\.name), ["a", "b"])

        let container = try PersistentContainer(model: model, store: .sqlite(url))
        let first = try XCTUnwrap(container.newContext().fetch(request).first?.objectID)
        try await ConcurrencyAndMergingArticle.Importer(container: container).markDone(first)
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<ConcurrencyAndMergingArticle.TaskItem>(predicate: \.isComplete == true)), 1)

        let context = container.newContext()
        let counter = ConcurrencyAndMergingArticle.Counter(context: context)
        try context.save()
        let other = container.newContext()
        let stale = try XCTUnwrap(other.existingObject(with: counter.objectID) as? ConcurrencyAndMergingArticle.Counter)
        counter.value = 10
        try context.save()
        stale.value = 5                         // read before the other save: its save conflicts
        try ConcurrencyAndMergingArticle.increment(counter.objectID, in: other)
        XCTAssertEqual(try container.newContext().fetch(FetchRequest<ConcurrencyAndMergingArticle.Counter>()).first?.value, 11)

        let (start, end) = try ConcurrencyAndMergingArticle.readHistory(of: container) {
            let writer = container.newContext()
            (try writer.existingObject(with: counter.objectID) as? ConcurrencyAndMergingArticle.Counter)?.value = 20
            try writer.save()
        }
        XCTAssertEqual(try container.history(after: start).flatMap(\.changes).map(\.objectID), [counter.objectID])
        XCTAssertEqual(try container.history(after: end).count, 0, "the loop's token is the last transaction's")
    }
}
