import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A store file may come from elsewhere (a backup, an attachment): connections are opened
/// defensively, a trigger or view the model does not declare is refused at open, extra
/// indexes and tables are tolerated, and a damaged file is an error, never a crash.
final class UntrustedStoreTests: XCTestCase {
    private var directory = TemporaryDirectory()

    override func setUp() { directory = TemporaryDirectory() }

    /// A closed store of TestTask with three tasks, tampered with by `sql`.
    private func tamperedStore(_ sql: String) throws -> URL {
        let url = directory.file("store-\(UUID().uuidString).sqlite")
        try writeStore(at: url)
        try runRawSQL(sql, on: url)
        return url
    }

    private func names(_ url: URL) throws -> [String] {
        let container = try PersistentContainer(model: taskModel(), store: .sqlite(url))
        return try container.newContext().fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.count)])).map(\.name)
    }

    // MARK: Triggers and views

    func testATriggerIsRefusedAtOpenNamingItAndNeverRuns() throws {
        let url = try tamperedStore("""
            CREATE TABLE stolen (name TEXT);
            CREATE TRIGGER copy_names AFTER INSERT ON Task BEGIN INSERT INTO stolen VALUES (new.name); END;
            CREATE TRIGGER wipe AFTER UPDATE ON Task BEGIN DELETE FROM Task; END
            """)
        let before = try directorySnapshot(directory.url)
        let error = expectPersistError(try PersistentContainer(model: taskModel(), store: .sqlite(url)), [.incompatibleModel])
        XCTAssertTrue(error?.message.contains("trigger copy_names on Task") == true, "\(String(describing: error))")
        XCTAssertTrue(error?.message.contains("trigger wipe on Task") == true, "\(String(describing: error))")
        XCTAssertEqual(error?.store, url.path)
        assertSameFiles(before, try directorySnapshot(directory.url))

        try runRawSQL("DROP TRIGGER copy_names; DROP TRIGGER wipe", on: url)
        XCTAssertEqual(try names(url).count, 3, "opens once the triggers are gone")
    }

    func testAViewIsRefusedAtOpenNamingIt() throws {
        let url = try tamperedStore("CREATE VIEW done AS SELECT * FROM Task WHERE isComplete")
        let error = expectPersistError(try PersistentContainer(model: taskModel(), store: .sqlite(url)), [.incompatibleModel])
        XCTAssertTrue(error?.message.contains("view done") == true, "\(String(describing: error))")
    }

    /// Indexes and tables the model does not declare change no stored value and no answer.
    func testExtraIndexesAndTablesAreTolerated() throws {
        let url = try tamperedStore("""
            CREATE INDEX by_name ON Task (name);
            CREATE INDEX by_length ON Task (length(name));
            CREATE TABLE notes (text TEXT)
            """)
        let container = try PersistentContainer(model: taskModel(), store: .sqlite(url))
        let context = container.newContext()
        let task = TestTask(context: context)
        task.name = "added"
        task.count = 9
        try context.save()
        XCTAssertEqual(try context.fetch(FetchRequest<TestTask>(predicate: \.name == "added")).count, 1)
    }

    // MARK: Defensive connections

    func testConnectionsAreDefensive() throws {
        let url = try tamperedStore("SELECT 1")
        for readOnly in [false, true] {
            let container = try PersistentContainer(model: taskModel(), store: .sqlite(url, readOnly: readOnly))
            try container.store.withConnection { connection in
                XCTAssertEqual(try connection.singleInt("PRAGMA trusted_schema"), 0, "readOnly \(readOnly)")
                XCTAssertEqual(try connection.singleInt("PRAGMA cell_size_check"), 1, "readOnly \(readOnly)")
                guard !readOnly else { return }
                // Defensive mode: the schema cannot be written as a table.
                try connection.execute("PRAGMA writable_schema=ON")
                XCTAssertThrowsError(try connection.execute("UPDATE sqlite_master SET sql = 'garbage' WHERE name = 'Task'"))
            }
        }
        XCTAssertEqual(try names(url).count, 3)
    }

    // MARK: Damaged files

    /// A damaged table whose rows all read the primary key 0 (seed 592352723 of the test
    /// below made one): the first fetch into a fresh context registered forty objects under
    /// one key, the map kept entries no removal found, and the context's `deinit` touched
    /// freed objects. The fetch is now a clear error, and nothing is left registered.
    func testRowsRepeatingAPrimaryKeyAreAnErrorNotACrash() throws {
        let url = directory.file("repeated.sqlite")
        try writeStore(at: url, entities: [TestTask.self, Everything.self], count: 40)
        do {
            // Every row's key read as 0, as a damaged b-tree returned them: the table rebuilt
            // without its primary key, its rows' keys set to 0.
            let connection = try SQLiteConnection(path: url.path, configuration: .init())
            let key = SchemaSQL.primaryKey
            try connection.execute("""
                CREATE TABLE copy AS SELECT * FROM "Task";
                DROP TABLE "Task";
                CREATE TABLE "Task" AS SELECT * FROM copy;
                DROP TABLE copy;
                UPDATE "Task" SET "\(key)" = 0;
                """)
        }
        let container = try PersistentContainer(model: ManagedObjectModel(entities: [TestTask.self, Everything.self]),
                                                store: .sqlite(url))
        let context = container.newContext()
        XCTAssertThrowsError(try context.fetch(FetchRequest<TestTask>())) { error in
            XCTAssertEqual((error as? PersistError)?.code, .notADatabase, "\(error)")
            XCTAssertTrue("\(error)".contains("returned the key 0 twice"), "\(error)")
        }
        XCTAssertEqual(try context.count(for: FetchRequest<TestTask>()), 40, "the rows are still there to read")
    }

    /// Generated: a small store with bytes overwritten at random past its header. Opening it,
    /// reading every object, changing one and saving either works or throws a PersistError;
    /// nothing crashes.
    func testDamagedStoresAreErrorsNeverCrashes() throws {
        let seed = testSeed("UntrustedStoreTests.testDamagedStoresAreErrorsNeverCrashes")
        let rounds = testSize("UntrustedStoreTests.testDamagedStoresAreErrorsNeverCrashes", full: 300, ci: 100)
        var random = SeededGenerator(seed: seed)
        let original = directory.file("original.sqlite")
        try writeStore(at: original, entities: [TestTask.self, Everything.self], count: 40)
        let bytes = try Data(contentsOf: original)
        var outcomes: [String: Int] = [:]
        for round in 0..<rounds {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...16, using: &random) {
                let at = Int.random(in: 100..<damaged.count, using: &random)
                damaged[at] = Int.random(in: 0...3, using: &random) == 0 ? 0xFF : UInt8.random(in: 0...255, using: &random)
            }
            let url = directory.file("damaged-\(round).sqlite")
            try damaged.write(to: url)
            do {
                let container = try PersistentContainer(model: ManagedObjectModel(entities: [TestTask.self, Everything.self]),
                                                        store: .sqlite(url))
                let context = container.newContext()
                let tasks = try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.count)]))
                _ = try context.fetch(FetchRequest<Everything>())
                _ = try context.count(for: FetchRequest<TestTask>(predicate: try .init(format: "name CONTAINS 'task'")))
                tasks.first?.name = "changed"
                let added = TestTask(context: context)
                added.name = "added"
                try context.save()
                outcomes["worked", default: 0] += 1
            } catch let error as PersistError {
                outcomes[error.code.rawValue, default: 0] += 1
            } catch {
                XCTFail("seed \(seed) round \(round): not a PersistError: \(error)")
            }
            try? FileManager.default.removeItem(at: url)
        }
        print("UntrustedStoreTests damaged stores: \(outcomes.sorted { $0.key < $1.key })")
    }
}
