import Foundation
import Logging
import PersistKit
import PersistKitTestSupport
import XCTest

/// The code of the DocC article Logging and Explaining Fetches, compiled and run
/// (`DocumentationCodeBlocksTests` checks that every block of the article stands here).
enum LoggingArticle {
    final class TaskItem: ManagedObject {
        override class var entityName: String { "Task" }
        @Attribute var name: String
        @Attribute var isComplete = false
    }

    static func giveTheContainerALogger(model: ManagedObjectModel, url: URL) throws -> PersistentContainer {
        var logger = Logger(label: "tasks.store")
        logger.logLevel = .debug
        let container = try PersistentContainer(model: model, store: .sqlite(url),
                                                options: .init(logger: logger))
        return container
    }

    static func aContextsOwnLogger(_ container: PersistentContainer) -> ManagedObjectContext {
        let importer = container.newContext()
        importer.name = "import"
        importer.logger = Logger(label: "tasks.import")
        return importer
    }

    static func slowStatements(_ logger: Logger) -> PersistentContainer.Options {
        let options = PersistentContainer.Options(logger: logger, slowStatementThreshold: .milliseconds(100))
        return options
    }
}

final class LoggingArticleTests: XCTestCase {
    func testTheArticleRuns() throws {
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: [LoggingArticle.TaskItem.self])
        let container = try LoggingArticle.giveTheContainerALogger(model: model, url: directory.file("tasks.sqlite"))
        XCTAssertEqual(container.logger?.logLevel, .debug)
        let importer = LoggingArticle.aContextsOwnLogger(container)
        XCTAssertEqual(importer.logger?.label, "tasks.import")
        let options = LoggingArticle.slowStatements(Logger(label: "x"))
        XCTAssertEqual(options.slowStatementThreshold, .milliseconds(100))
        let context = container.newContext()
        let explanation = try context.explain(FetchRequest<LoggingArticle.TaskItem>(predicate: \.isComplete == false))
        XCTAssertEqual(explanation.evaluation, .sql)
        XCTAssertEqual(explanation.queryPlan, ["SCAN Task"])
        XCTAssertEqual(explanation.notes, ["scans Task, reading every row to test isComplete: no index of Task starts with it"])
        try explain(context)
    }

    /// The article's block, with `TaskItem` as the article names it.
    private func explain(_ context: ManagedObjectContext) throws {
        typealias TaskItem = LoggingArticle.TaskItem
        let explanation = try context.explain(FetchRequest<TaskItem>(predicate: \.isComplete == false))
        print(explanation.evaluation)   // sql
        print(explanation.queryPlan)    // ["SCAN Task"]
        print(explanation.notes)        // ["scans Task, reading every row to test isComplete: no index of Task starts with it"]
        print(explanation)              // all of it, as lines: the SQL, the plan, the notes
        XCTAssertTrue(explanation.description.hasPrefix("fetch Task: in SQL"))
    }
}
