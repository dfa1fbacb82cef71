import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A store this process can only read opens read-only: fetches work, a save is a clear error,
/// the files are untouched, and a refused open creates nothing.
///
/// Tests run as root, whom file permissions do not stop: "cannot write" is made with
/// `chattr +i` (skipped where that is unavailable).
final class ReadOnlyStoreTests: XCTestCase {

    private func checkReadsAndRefusesSaves(_ container: PersistentContainer, expectedCount: Int,
                                           file: StaticString = #filePath, line: UInt = #line) throws {
        let context = container.newContext()
        let tasks = try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.count)]))
        XCTAssertEqual(tasks.count, expectedCount, file: file, line: line)
        XCTAssertEqual(try context.count(for: FetchRequest<TestTask>(predicate: \.count >= 1)), expectedCount - 1, file: file, line: line)
        tasks.first?.name = "renamed"
        let added = TestTask(context: context)
        added.name = "added"
        let error = expectPersistError(try context.save(), [.cannotOpenStore], "a save to a read-only store", file: file, line: line)
        XCTAssertTrue(error?.message.contains("read-only") ?? false, "the error says why: \(error?.description ?? "")", file: file, line: line)
        XCTAssertNil(error?.sqliteCode, "not a busy or SQLite error", file: file, line: line)
        XCTAssertTrue(context.hasChanges, "the failed save changed nothing in the context", file: file, line: line)
        XCTAssertTrue(added.objectID.isTemporary, file: file, line: line)
    }

    func testImmutableStoreFileOpensReadOnly() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        try writeStore(at: url, count: 3)
        let bytes = try Data(contentsOf: url)
        let immutable = try ImmutableFiles([url])
        defer { immutable.release() }
        do {
            let container = try PersistentContainer(model: taskModel(), store: .sqlite(url))
            try checkReadsAndRefusesSaves(container, expectedCount: 3)
        }
        XCTAssertEqual(try Data(contentsOf: url), bytes, "the store is byte-identical")
    }

    /// In a directory nobody can write, SQLite cannot make its -wal and -shm files: the store
    /// is read as an immutable file, and nothing is created.
    func testStoreInImmutableDirectoryOpensReadOnlyAndCreatesNothing() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        try writeStore(at: url, count: 3)
        let before = try directorySnapshot(directory.url)
        let immutable = try ImmutableFiles([directory.url])
        defer { immutable.release() }
        do {
            let container = try PersistentContainer(model: taskModel(), store: .sqlite(url))
            try checkReadsAndRefusesSaves(container, expectedCount: 3)
        }
        assertSameFiles(before, try directorySnapshot(directory.url))
    }

    /// Refused (another model), a read-only open leaves no -wal or -shm behind.
    func testRefusedOpenOfImmutableStoreCreatesNothing() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        try writeStore(at: url, count: 3)
        let before = try directorySnapshot(directory.url)
        let immutable = try ImmutableFiles([url])
        defer { immutable.release() }
        let other = try ManagedObjectModel(entities: [TestTask.self, Everything.self])
        expectPersistError(try PersistentContainer(model: other, store: .sqlite(url)), [.incompatibleModel])
        assertSameFiles(before, try directorySnapshot(directory.url))
    }

    /// A new store cannot be made in a directory nobody can write, and trying creates nothing.
    func testNewStoreInImmutableDirectoryIsRefused() throws {
        let directory = TemporaryDirectory()
        let immutable = try ImmutableFiles([directory.url])
        defer { immutable.release() }
        expectPersistError(try PersistentContainer(model: taskModel(), store: .sqlite(directory.file("new.sqlite"))), [.cannotOpenStore])
        XCTAssertEqual(try directorySnapshot(directory.url).count, 0)
    }
    // MARK: The readOnly option (testable by any user)

    func testReadOnlyOptionFetchesAndRefusesSaves() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        try writeStore(at: url, count: 3)
        let bytes = try Data(contentsOf: url)
        do {
            let container = try PersistentContainer(model: taskModel(), store: .sqlite(url, readOnly: true))
            XCTAssertTrue(container.isReadOnly)
            try checkReadsAndRefusesSaves(container, expectedCount: 3)
        }
        XCTAssertEqual(try Data(contentsOf: url), bytes, "the store is byte-identical")
        let writable = try PersistentContainer(model: taskModel(), store: .sqlite(url))
        XCTAssertFalse(writable.isReadOnly)
    }

    /// The file is first read as an immutable file, through a `file:` URI: a name with the
    /// characters a URI gives meaning to still names the same file.
    func testReadOnlyStoreWithURICharactersInItsName() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("odd ?#%25 name.sqlite")
        try writeStore(at: url, count: 2)
        let container = try PersistentContainer(model: taskModel(), store: .sqlite(url, readOnly: true))
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<TestTask>()), 2)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { !$0.hasPrefix("odd ?#%25 name.sqlite") }, [])
    }

    /// A read-only container sees what a writer saves meanwhile.
    func testReadOnlyContainerSeesAnotherWritersSaves() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        try writeStore(at: url, count: 3)
        let reader = try PersistentContainer(model: taskModel(), store: .sqlite(url, readOnly: true))
        XCTAssertEqual(try reader.newContext().count(for: FetchRequest<TestTask>()), 3)
        let writer = try PersistentContainer(model: taskModel(), store: .sqlite(url))
        let context = writer.newContext()
        let task = TestTask(context: context)
        task.name = "written meanwhile"
        try context.save()
        let names = try reader.newContext().fetch(FetchRequest<TestTask>(predicate: \.name == "written meanwhile")).map(\.name)
        XCTAssertEqual(names, ["written meanwhile"])
    }

    func testReadOnlyOptionRefusedOpenCreatesNothing() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        try writeStore(at: url, count: 3)
        let before = try directorySnapshot(directory.url)
        let other = try ManagedObjectModel(entities: [TestTask.self, Everything.self])
        expectPersistError(try PersistentContainer(model: other, store: .sqlite(url, readOnly: true)), [.incompatibleModel])
        assertSameFiles(before, try directorySnapshot(directory.url))
    }

    func testReadOnlyOptionOnAMissingOrEmptyStoreCreatesNothing() throws {
        let directory = TemporaryDirectory()
        let missing = directory.file("missing.sqlite")
        let error = expectPersistError(try PersistentContainer(model: taskModel(), store: .sqlite(missing, readOnly: true)), [.cannotOpenStore])
        XCTAssertTrue(error?.message.contains("read-only") ?? false, error?.message ?? "")
        XCTAssertEqual(try directorySnapshot(directory.url).count, 0)

        let empty = directory.file("empty.sqlite")
        XCTAssertTrue(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        expectPersistError(try PersistentContainer(model: taskModel(), store: .sqlite(empty, readOnly: true)), [.cannotOpenStore])
        XCTAssertEqual(try directorySnapshot(directory.url).keys.sorted(), ["empty.sqlite"])
        XCTAssertEqual(try Data(contentsOf: empty).count, 0)
    }
}
