import Foundation
import PersistKit
import PersistKitTestSupport
import XCTest

/// The code of the DocC article Coming from Core Data, compiled and run
/// (`DocumentationCodeBlocksTests` checks that every block of the article stands here).
enum ComingFromCoreDataArticle {
    typealias TaskItem = FetchingAndPredicatesArticle.TaskItem

    static func fetchWithSwiftDataTypes(in context: ManagedObjectContext) throws -> [TaskItem] {
        let request = FetchRequest(predicate: #Predicate<TaskItem> { $0.isComplete == false },
                                   sortBy: [SortDescriptor(\.due)])
        let open = try context.fetch(request)
        return open
    }
}

final class ComingFromCoreDataArticleTests: XCTestCase {
    func testTheArticleRuns() throws {
        let model = try ManagedObjectModel(entities: [FetchingAndPredicatesArticle.TaskItem.self, FetchingAndPredicatesArticle.Project.self,
                                                      FetchingAndPredicatesArticle.Owner.self, FetchingAndPredicatesArticle.Tag.self])
        let context = try PersistentContainer(model: model, store: .inMemory).newContext()
        for (name, done) in [("later", false), ("done", true), ("sooner", false)] {
            let task = FetchingAndPredicatesArticle.TaskItem(context: context)
            task.name = name
            task.isComplete = done
            task.due = name == "sooner" ? Date(timeIntervalSince1970: 1) : Date(timeIntervalSince1970: 2)
        }
        XCTAssertEqual(try ComingFromCoreDataArticle.fetchWithSwiftDataTypes(in: context).map(\.name), ["sooner", "later"])
    }
}
