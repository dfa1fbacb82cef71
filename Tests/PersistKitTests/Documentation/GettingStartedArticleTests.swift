import Foundation
import PersistKit
import PersistKitTestSupport
import XCTest

/// The code of the DocC article Getting Started, compiled and run as a user's file would be
/// (`DocumentationCodeBlocksTests` checks that every block of the article stands here).
enum GettingStartedArticle {
    enum Priority: Int, AttributeValue { case low, normal, high }

    final class TaskItem: ManagedObject {
        override class var entityName: String { "Task" }   // the class names its entity
        @Attribute var name: String
        @Attribute var notes: String?
        @Attribute var due: Date?
        @Attribute var isComplete = false
        @Attribute var priority: Priority = .normal
    }

    static func openAStore(at url: URL) throws -> PersistentContainer {
        let model = try ManagedObjectModel(entities: [TaskItem.self])
        let container = try PersistentContainer(model: model, store: .sqlite(url))
        return container
    }

    static func workInAContext(_ container: PersistentContainer) throws -> ManagedObjectContext {
        let context = container.newContext()
        let task = TaskItem(context: context)
        task.name = "Buy milk"
        try context.save()
        return context
    }

    static func fetch(in context: ManagedObjectContext, deadline: Date) throws -> (open: [TaskItem], count: Int, byFormat: [TaskItem]) {
        let request = FetchRequest<TaskItem>(
            predicate: \.isComplete == false && \.due < deadline,
            sortBy: [FetchSortDescriptor(\.due, nils: .last)])
        let open = try context.fetch(request)
        let count = try context.count(for: request)
        let byFormat = try FetchPredicate<TaskItem>(format: "name BEGINSWITH[cd] %@", "buy")
        return (open, count, try context.fetch(FetchRequest(predicate: byFormat)))
    }
}

final class GettingStartedArticleTests: XCTestCase {
    func testTheArticleRuns() throws {
        let directory = TemporaryDirectory()
        let url = directory.url.appendingPathComponent("new directory/tasks.sqlite")   // made when missing
        let container = try GettingStartedArticle.openAStore(at: url)
        let context = try GettingStartedArticle.workInAContext(container)
        let task = try XCTUnwrap(context.fetch(FetchRequest<GettingStartedArticle.TaskItem>()).first)
        task.due = Date(timeIntervalSinceNow: 3600)
        let (open, count, byFormat) = try GettingStartedArticle.fetch(in: context, deadline: Date(timeIntervalSinceNow: 7200))
        XCTAssertEqual(open.map(\.name), ["Buy milk"])
        XCTAssertEqual(count, 1)
        XCTAssertEqual(byFormat.map(\.name), ["Buy milk"], "BEGINSWITH[cd] folds case")
    }
}
