import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A connection keeps its prepared statements bounded by count and by bytes: one-off huge SQL
/// is not kept, the least recently used statements go first, and a statement in use when it
/// leaves the cache keeps working.
final class StatementCacheTests: XCTestCase {
    private var directory = TemporaryDirectory()

    override func setUp() { directory = TemporaryDirectory() }

    private func connection() throws -> SQLiteConnection {
        try SQLiteConnection(path: directory.file("cache-\(UUID().uuidString).sqlite").path, configuration: .init())
    }

    /// `SELECT ... WHERE 0 IN (...)` with `values` numbers, made distinct by `tag`.
    private func sql(values: Int, tag: Int) -> String {
        "SELECT \(tag) WHERE 0 IN (" + (1...values).map(String.init).joined(separator: ", ") + ")"
    }

    func testHugeOneOffStatementsAreNotKept() throws {
        let connection = try connection()
        let before = connection.statements.count
        for tag in 0..<40 {
            let statement = try connection.cachedStatement(sql(values: 20_000, tag: tag))   // about 110 KB of SQL
            XCTAssertFalse(try statement.step(), "it runs")
        }
        XCTAssertEqual(connection.statements.count, before)
        XCTAssertLessThan(connection.statements.bytes, 64 << 10)
    }

    func testManyStatementsStayWithinTheCount() throws {
        let connection = try connection()
        for tag in 0..<(StatementCache.maximumCount * 4) {
            _ = try connection.cachedStatement("SELECT \(tag)")
        }
        XCTAssertEqual(connection.statements.count, StatementCache.maximumCount)
    }

    func testLargeStatementsStayWithinTheBytes() throws {
        let connection = try connection()
        for tag in 0..<300 {
            // About 25 KB of SQL and several hundred KB of SQLite's memory: kept, but 300 are too many bytes.
            let sql = sql(values: 5_000, tag: tag)
            XCTAssertTrue(StatementCache.keeps(sql))
            _ = try connection.cachedStatement(sql)
            XCTAssertLessThanOrEqual(connection.statements.bytes, StatementCache.maximumBytes)
        }
        XCTAssertLessThan(connection.statements.count, 300)
        XCTAssertGreaterThan(connection.statements.count, 1)
    }

    /// The least recently used statement goes first: one used all along stays.
    func testTheLeastRecentlyUsedGoFirst() throws {
        let connection = try connection()
        let kept = try connection.cachedStatement("SELECT 'kept'")
        for tag in 0..<(StatementCache.maximumCount * 2) {
            _ = try connection.cachedStatement("SELECT \(tag)")
            XCTAssertTrue(try connection.cachedStatement("SELECT 'kept'") === kept)
        }
    }

    /// A statement a caller is stepping through when it leaves the cache goes on working.
    func testAStatementInUseOutlivesItsEviction() throws {
        let connection = try connection()
        try connection.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        let reading = try connection.cachedStatement("SELECT x FROM t ORDER BY x")
        XCTAssertTrue(try reading.step())
        XCTAssertEqual(reading.int64(at: 0), 1)
        for tag in 0..<(StatementCache.maximumCount + 10) { _ = try connection.cachedStatement("SELECT \(tag)") }
        XCTAssertFalse(try connection.cachedStatement("SELECT x FROM t ORDER BY x") === reading, "it left the cache")
        XCTAssertTrue(try reading.step())
        XCTAssertEqual(reading.int64(at: 0), 2)
        XCTAssertTrue(try reading.step())
        XCTAssertEqual(reading.int64(at: 0), 3)
        XCTAssertFalse(try reading.step())
    }

    /// Through the API: fetches with ever new long IN lists leave the store's connections
    /// within their bounds.
    func testFetchesWithLongListsStayBounded() throws {
        let container = try makeContainer(.sqlite, in: directory)
        let context = container.newContext()
        for index in 0..<50 {
            let task = TestTask(context: context)
            task.name = "t\(index)"
            task.count = index
        }
        try context.save()
        for round in 0..<40 {
            let values = Array(round..<(round + 1_000 + round * 37))
            XCTAssertFalse(try context.fetch(FetchRequest<TestTask>(predicate: try .init(format: "count IN %@", values))).isEmpty)
        }
        try container.store.withConnection { connection in
            XCTAssertLessThanOrEqual(connection.statements.count, StatementCache.maximumCount)
            XCTAssertLessThanOrEqual(connection.statements.bytes, StatementCache.maximumBytes)
        }
    }
}
