import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A consumer's hold on the persistent history (`retainHistory(after:for:)`): what it has not
/// read survives the retention policy and explicit purges, in every process, until it moves
/// on or lets go.
final class HistoryHoldTests: XCTestCase {
    private let directory = TemporaryDirectory()

    private func container(retention: HistoryRetention) throws -> PersistentContainer {
        var description = StoreDescription.sqlite(directory.file("store.sqlite"))
        description.historyRetention = retention
        return try PersistentContainer(model: ManagedObjectModel(entities: [TestTask.self]), store: description)
    }

    private func save(_ count: Int, in container: PersistentContainer) throws {
        let context = container.newContext()
        for index in 0..<count {
            let task = TestTask(context: context)
            task.name = "task \(index)"
            try context.save()
        }
    }

    func testHeldHistoryOutlivesTheRetentionPolicyUntilReleased() throws {
        let container = try self.container(retention: HistoryRetention(maximumAge: nil, maximumTransactions: 2))
        try save(1, in: container)
        let token = try XCTUnwrap(try container.currentHistoryToken())
        try container.retainHistory(after: token, for: "uploader")
        XCTAssertEqual(try container.historyConsumers()["uploader"], token)
        try save(5, in: container)
        XCTAssertEqual(try container.history(after: token).count, 5, "the retention kept what the consumer has not read")
        XCTAssertEqual(try container.purgeHistory(before: try XCTUnwrap(try container.currentHistoryToken())), 0,
                       "an explicit purge keeps it too")

        // Another process (another container on the file) keeps to the hold as well.
        let other = try self.container(retention: HistoryRetention(maximumAge: nil, maximumTransactions: 2))
        try save(1, in: other)
        XCTAssertEqual(try container.history(after: token).count, 6)

        // Moving the hold on lets the older records go at the next save.
        let later = try container.history(after: token)[2].token
        try container.retainHistory(after: later, for: "uploader")
        try save(1, in: container)
        XCTAssertThrowsError(try container.history(after: token)) { error in
            XCTAssertEqual((error as? PersistError)?.code, .historyExpired)
        }
        XCTAssertEqual(try container.history(after: later).count, 4, "the four after it: three of the six, and the new one")

        try container.releaseHistory(for: "uploader")
        XCTAssertTrue(try container.historyConsumers().isEmpty)
        try save(1, in: container)
        XCTAssertThrowsError(try container.history(after: later))
    }

    func testAHoldOnEverythingKeepsOldRecordsPastTheirAge() throws {
        let container = try self.container(retention: HistoryRetention(maximumAge: 0, maximumTransactions: nil))
        try container.retainHistory(after: nil, for: "indexer")
        try save(3, in: container)
        XCTAssertEqual(try container.history(after: nil).count, 3)
        XCTAssertEqual(try container.historyConsumers(), ["indexer": nil])
    }

    func testASyncErrorNamesTheServerAndSpace() {
        var error = PersistError(.sync, "Cannot reach the sync server")
        error.server = "postgres://alice@db:5432/tasks"
        error.space = "alice"
        XCTAssertEqual(error.reason, .sync(server: "postgres://alice@db:5432/tasks", space: "alice"))
        XCTAssertEqual(error.description, "Cannot reach the sync server (server: postgres://alice@db:5432/tasks; space: alice)")
    }
}
