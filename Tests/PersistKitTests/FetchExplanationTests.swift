import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// `context.explain(request)`: the SQL a fetch runs, SQLite's plan for it, and where the
/// predicate runs (SQL, the evaluator inside SQL, or SQL and the context's unsaved objects).
final class FetchExplanationTests: XCTestCase {
    private func context() throws -> ManagedObjectContext {
        try PersistentContainer(model: taskModel(), store: .inMemory).newContext()
    }

    func testAPlainFetchRunsInSQLAndSaysWhatItScans() throws {
        let context = try context()
        let explanation = try context.explain(FetchRequest<TestTask>(predicate: \.count > 3, sortBy: [FetchSortDescriptor(\.name)]))
        XCTAssertEqual(explanation.entityName, "Task")
        XCTAssertEqual(explanation.evaluation, .sql)
        XCTAssertTrue(explanation.sql.hasPrefix("SELECT \"_pk\", \"_version\""), explanation.sql)
        XCTAssertTrue(explanation.sql.contains("WHERE (\"count\" > ?1)"), explanation.sql)
        XCTAssertEqual(explanation.boundValueCount, 1)
        XCTAssertEqual(explanation.queryPlan, ["SCAN Task", "USE TEMP B-TREE FOR ORDER BY"])
        XCTAssertEqual(explanation.notes, ["scans Task, reading every row to test count: no index of Task starts with it"])
        XCTAssertTrue(explanation.description.hasPrefix("fetch Task: in SQL (SQLite tests the predicate, sorts and windows the rows)\nSELECT"),
                      explanation.description)
    }

    func testAFetchByPrimaryKeyOrderNeedsNoNotes() throws {
        let explanation = try context().explain(FetchRequest<TestTask>())
        XCTAssertEqual(explanation.queryPlan, ["SCAN Task"])
        XCTAssertEqual(explanation.notes, [], "no condition: reading every row is what was asked")
        XCTAssertEqual(explanation.boundValueCount, 0)
    }

    func testUnsavedObjectsAreMatchedInMemory() throws {
        let context = try context()
        let task = TestTask(context: context)
        task.name = "unsaved"
        let explanation = try context.explain(FetchRequest<TestTask>(predicate: \.count >= 0))
        XCTAssertEqual(explanation.evaluation, .sqlAndPendingChanges)
        XCTAssertTrue(explanation.reason.contains("1 unsaved object of Task is tested, sorted and merged in memory"), explanation.reason)
        var request = FetchRequest<TestTask>(predicate: \.count >= 0)
        request.includesPendingChanges = false
        XCTAssertEqual(try context.explain(request).evaluation, .sql)
        XCTAssertTrue(context.hasChanges, "explaining changes nothing")
    }

    func testAPredicateTooLargeForSQLRunsTheEvaluatorInsideSQL() throws {
        // A long IN list (or AND of `!=`) is one JSON array in SQL; many comparisons of other kinds are not.
        let count = PredicateSQLCompiler.maximumSQLComparisons + 1
        let many = FetchPredicate<TestTask>(node: .and((0..<count).map { .compare(attribute: "count", .greater, .integer(Int64(-1 - $0))) }))
        let explanation = try context().explain(FetchRequest<TestTask>(predicate: many))
        XCTAssertEqual(explanation.evaluation, .evaluatorInSQL)
        XCTAssertTrue(explanation.sql.contains("pk_predicate("), explanation.sql)
        XCTAssertTrue(explanation.reason.contains("\(count) comparisons and \(count) values"), explanation.reason)
    }

    func testAnInvalidRequestThrowsAsAFetchWould() throws {
        expectPersistError(try context().explain(FetchRequest<ManagedObject>(entityName: "Nope")), [.invalidRequest])
    }
}
