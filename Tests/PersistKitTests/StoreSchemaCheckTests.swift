import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Opening a store checks its format version and every table and column against the model,
/// and SQLite never reads a double-quoted name it cannot find as a string.
final class StoreSchemaCheckTests: XCTestCase {

    /// Tampers with a closed store of TestTask and Everything, then expects opening it to be
    /// refused as incompatible, naming `entity` and `attribute`, with every file untouched.
    @discardableResult
    private func expectRefused(after sql: String, entity: String, attribute: String?,
                               file: StaticString = #filePath, line: UInt = #line) throws -> PersistError? {
        let directory = TemporaryDirectory()
        let url = directory.file("tampered.sqlite")
        try writeStore(at: url, entities: [TestTask.self, Everything.self])
        try runRawSQL(sql, on: url)
        let before = try directorySnapshot(directory.url)
        XCTAssertEqual(before.keys.sorted(), ["tampered.sqlite"], file: file, line: line)
        let model = try ManagedObjectModel(entities: [TestTask.self, Everything.self])
        let error = expectPersistError(try PersistentContainer(model: model, store: .sqlite(url)), [.incompatibleModel],
                                       sql, file: file, line: line)
        assertSameFiles(before, try directorySnapshot(directory.url), file: file, line: line)
        guard let error else { return nil }
        XCTAssertEqual(error.entity, entity, error.description, file: file, line: line)
        XCTAssertEqual(error.attribute, attribute, error.description, file: file, line: line)
        XCTAssertTrue(error.message.contains(entity), "the message names the table: \(error.message)", file: file, line: line)
        if let attribute {
            XCTAssertTrue(error.message.contains(attribute), "the message names the column: \(error.message)", file: file, line: line)
        }
        XCTAssertTrue(error.description.contains(url.path), "names the store: \(error.description)", file: file, line: line)
        return error
    }

    func testMissingColumnIsRefusedNamingIt() throws {
        try expectRefused(after: #"ALTER TABLE "Task" DROP COLUMN "notes""#, entity: "Task", attribute: "notes")
    }

    func testMissingVersionColumnIsRefusedNamingIt() throws {
        try expectRefused(after: #"ALTER TABLE "Everything" DROP COLUMN "_version""#, entity: "Everything", attribute: "_version")
    }

    func testExtraColumnIsRefusedNamingIt() throws {
        try expectRefused(after: #"ALTER TABLE "Task" ADD COLUMN "colour" TEXT"#, entity: "Task", attribute: "colour")
    }

    func testRenamedColumnIsRefused() throws {
        let error = try expectRefused(after: #"ALTER TABLE "Task" RENAME COLUMN "estimate" TO "guess""#, entity: "Task", attribute: "estimate")
        XCTAssertTrue(error?.message.contains("guess") ?? false, "the extra column is named too: \(error?.message ?? "")")
    }

    func testMissingTableIsRefusedNamingIt() throws {
        try expectRefused(after: #"DROP TABLE "Everything""#, entity: "Everything", attribute: nil)
    }

    /// With SQLite's fallback on, `SELECT "nosuch"` is the string 'nosuch', and an index on a
    /// misspelled column indexes a constant.
    func testDoubleQuotedNamesAreNeverStrings() throws {
        forEachStore { container, kind in
            try container.store.withConnection { connection in
                expectPersistError(try connection.singleText(#"SELECT "nosuch" FROM "Task""#), [.sqlite], "\(kind): DML")
                expectPersistError(try connection.singleText(#"SELECT "nosuch""#), [.sqlite], "\(kind): DML without a table")
                expectPersistError(try connection.execute(#"CREATE INDEX "byNosuch" ON "Task" ("nosuch")"#), [.sqlite], "\(kind): DDL")
            }
        }
    }

    // MARK: Format version

    func testNewerFormatVersionIsRefusedNamingBothVersions() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("newer.sqlite")
        try writeStore(at: url)
        try runRawSQL("UPDATE _persistkit_metadata SET value = '2' WHERE key = 'formatVersion'", on: url)
        let before = try directorySnapshot(directory.url)
        let error = expectPersistError(try PersistentContainer(model: taskModel(), store: .sqlite(url)), [.incompatibleModel])
        assertSameFiles(before, try directorySnapshot(directory.url))
        XCTAssertFalse(fileExists(walURL(url)))
        XCTAssertFalse(fileExists(shmURL(url)))
        guard let error else { return }
        XCTAssertEqual(error.storeVersion, "2")
        XCTAssertEqual(error.modelVersion, "1")
        XCTAssertEqual(error.reason, .incompatibleModel(file: url.path, storeVersion: "2", modelVersion: "1"))
        XCTAssertTrue(error.message.contains("format version 2"), error.message)
        XCTAssertTrue(error.message.contains("format version 1"), error.message)
        XCTAssertTrue(error.description.contains(url.path), error.description)
    }

    func testUnreadableFormatVersionIsRefused() throws {
        for value in ["one", "", "0", "-1"] {
            let directory = TemporaryDirectory()
            let url = directory.file("odd.sqlite")
            try writeStore(at: url)
            try runRawSQL("UPDATE _persistkit_metadata SET value = '\(value)' WHERE key = 'formatVersion'", on: url)
            let before = try directorySnapshot(directory.url)
            let error = expectPersistError(try PersistentContainer(model: taskModel(), store: .sqlite(url)), [.incompatibleModel],
                                           "format version '\(value)'")
            assertSameFiles(before, try directorySnapshot(directory.url))
            XCTAssertEqual(error?.storeVersion, value)
            XCTAssertEqual(error?.modelVersion, "1")
        }
    }

    func testMissingFormatVersionIsRefused() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("unversioned.sqlite")
        try writeStore(at: url)
        try runRawSQL("DELETE FROM _persistkit_metadata WHERE key = 'formatVersion'", on: url)
        let before = try directorySnapshot(directory.url)
        let error = expectPersistError(try PersistentContainer(model: taskModel(), store: .sqlite(url)), [.incompatibleModel])
        assertSameFiles(before, try directorySnapshot(directory.url))
        XCTAssertTrue(error?.message.contains("format version") ?? false, error?.message ?? "")
    }

    func testCurrentFormatVersionOpens() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("current.sqlite")
        let identifier = try writeStore(at: url)
        let container = try PersistentContainer(model: taskModel(), store: .sqlite(url))
        XCTAssertEqual(container.storeIdentifier, identifier)
        XCTAssertEqual(try container.store.withConnection {
            try $0.singleText("SELECT value FROM _persistkit_metadata WHERE key = 'formatVersion'")
        }, "1")
    }
}
