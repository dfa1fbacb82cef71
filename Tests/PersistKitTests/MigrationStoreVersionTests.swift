import Foundation
import Synchronization
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Which version wrote a store, and what opening it with another version does: a newer store,
/// an unknown model, no plan, a read-only store are refused with the files untouched; an
/// older store with a plan is migrated, once.
final class MigrationStoreVersionTests: XCTestCase {
    private func writeVersion1Store(at url: URL) throws {
        try writeStore(at: url, model: PlannerV1.model()) { context in
            for index in 0..<3 {
                let task = PlannerV1.Task(context: context)
                task.title = "task \(index)"
            }
        }
    }

    func testNewStoreRecordsItsModelVersion() throws {
        let directory = TemporaryDirectory()
        let container = try PersistentContainer(model: PlannerV3.model(), store: .sqlite(directory.file("new.sqlite")))
        XCTAssertEqual(try storedModelMetadata(container)["modelVersion"], "3")
        XCTAssertEqual(try storedModelMetadata(container)["versionHash"], container.model.versionHash)
        XCTAssertNil(container.migrationReport)
    }

    func testStoreOfANewerVersionIsRefusedNamingBothVersions() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("newer.sqlite")
        try writeStore(at: url, model: PlannerV2.model()) { _ in }
        let before = try directorySnapshot(directory.url)
        for options in [PersistentContainer.Options(), .init(migrationPlan: MigrationPlan(models: []))] {
            let error = expectPersistError(try PersistentContainer(model: PlannerV1.model(), store: .sqlite(url), options: options),
                                           [.incompatibleModel])
            assertSameFiles(before, try directorySnapshot(directory.url))
            XCTAssertEqual(error?.reason, .incompatibleModel(file: url.path, storeVersion: "2", modelVersion: "1"))
            XCTAssertTrue(error?.message.contains("version 2") ?? false, error?.message ?? "")
            XCTAssertTrue(error?.message.contains("version 1") ?? false, error?.message ?? "")
            XCTAssertTrue(error?.message.contains("left untouched") ?? false, error?.message ?? "")
        }
    }

    func testOlderStoreWithoutAPlanIsRefusedUntouched() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("old.sqlite")
        try writeVersion1Store(at: url)
        let before = try directorySnapshot(directory.url)
        let error = expectPersistError(try PersistentContainer(model: PlannerV2.model(), store: .sqlite(url)), [.incompatibleModel])
        assertSameFiles(before, try directorySnapshot(directory.url))
        XCTAssertEqual(error?.storeVersion, "1")
        XCTAssertEqual(error?.modelVersion, "2")
        XCTAssertTrue(error?.message.contains("no migration plan") ?? false, error?.message ?? "")
    }

    /// A plan that lacks the store's version, or whose model of that version is another
    /// model: the store is of an unknown model.
    func testStoreOfAnUnknownModelIsRefusedUntouched() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("unknown.sqlite")
        try writeVersion1Store(at: url)
        let before = try directorySnapshot(directory.url)
        let missing = expectPersistError(try openMigrating(url, to: PlannerV3.model(), from: [PlannerV2.model()]), [.incompatibleModel])
        XCTAssertTrue(missing?.message.contains("does not have (it has versions 2, 3)") ?? false, missing?.message ?? "")
        let other = try documentModel(1, [entity("Task", [attribute("title", "string"), attribute("colour", "string")])])
        let unknown = expectPersistError(try openMigrating(url, to: PlannerV2.model(), from: [other]), [.incompatibleModel])
        XCTAssertTrue(unknown?.message.contains("an unknown model") ?? false, unknown?.message ?? "")
        XCTAssertEqual(unknown?.storeVersion, "1")
        assertSameFiles(before, try directorySnapshot(directory.url))
        XCTAssertEqual(try PersistentContainer(model: PlannerV1.model(), store: .sqlite(url)).newContext()
            .count(for: FetchRequest<PlannerV1.Task>()), 3, "the store still opens as version 1")
    }

    /// A model changed without a new version number is caught, not taken for the old one.
    func testChangedModelWithTheSameVersionIsRefused() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("same.sqlite")
        try writeStore(at: url, model: documentModel(2, [entity("Task", [attribute("title", "string")])])) { _ in }
        let before = try directorySnapshot(directory.url)
        let changed = try documentModel(2, [entity("Task", [attribute("title", "string"), attribute("rank", "integer", optional: true)])])
        let error = expectPersistError(try PersistentContainer(model: changed, store: .sqlite(url)), [.incompatibleModel])
        XCTAssertTrue(error?.message.contains("needs a new version number") ?? false, error?.message ?? "")
        XCTAssertEqual(error?.storeVersion, "2")
        XCTAssertEqual(error?.modelVersion, "2")
        assertSameFiles(before, try directorySnapshot(directory.url))
    }

    /// Stores written before PersistKit recorded versions count as version 1.
    func testStoreWithoutARecordedVersionIsVersion1() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("legacy.sqlite")
        try writeVersion1Store(at: url)
        try runRawSQL("DELETE FROM _persistkit_metadata WHERE key = 'modelVersion'", on: url)
        XCTAssertEqual(try PersistentContainer(model: PlannerV1.model(), store: .sqlite(url)).newContext()
            .count(for: FetchRequest<PlannerV1.Task>()), 3)
        let container = try openMigrating(url, to: PlannerV2.model(), from: [PlannerV1.model()])
        XCTAssertEqual(container.migrationReport?.fromVersion, 1)
        XCTAssertEqual(try storedModelMetadata(container)["modelVersion"], "2")
        XCTAssertEqual(try container.newContext().fetch(FetchRequest<PlannerV2.Task>()).map(\.name).sorted(),
                       ["task 0", "task 1", "task 2"])
    }

    func testReadOnlyStoreThatNeedsMigratingIsRefusedUntouched() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("archive.sqlite")
        try writeVersion1Store(at: url)
        let before = try directorySnapshot(directory.url)
        let plan = MigrationPlan(models: [try PlannerV1.model()])
        let error = expectPersistError(try PersistentContainer(model: PlannerV2.model(), store: .sqlite(url, readOnly: true),
                                                               options: .init(migrationPlan: plan)), [.incompatibleModel])
        XCTAssertTrue(error?.message.contains("must be migrated to version 2") ?? false, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("read-only") ?? false, error?.message ?? "")
        assertSameFiles(before, try directorySnapshot(directory.url))
    }

    /// Migrated once: opening again finds the new version and migrates nothing.
    func testMigratedStoreOpensWithoutMigratingAgain() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("once.sqlite")
        try writeVersion1Store(at: url)
        let first = try openMigrating(url, to: PlannerV2.model(), from: [PlannerV1.model()])
        XCTAssertEqual(first.migrationReport?.toVersion, 2)
        XCTAssertEqual(first.migrationReport?.objectCounts, ["Task": 3, "Project": 0, "Tag": 0])
        XCTAssertEqual(first.migrationReport?.objectCount, 3)
        let identifier = first.storeIdentifier
        let second = try openMigrating(url, to: PlannerV2.model(), from: [PlannerV1.model()])
        XCTAssertNil(second.migrationReport)
        XCTAssertEqual(second.storeIdentifier, identifier, "a migration keeps the store's identity")
        XCTAssertNotNil(try PersistentContainer(model: PlannerV2.model(), store: .sqlite(url)), "no plan needed any more")
    }

    /// Two containers of one process opening an old store together: one migrates, the other
    /// finds it migrated (the decision is taken again under the write lock).
    func testConcurrentOpensMigrateOnce() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("together.sqlite")
        try writeVersion1Store(at: url)
        let reports = Mutex<[MigrationReport?]>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                let container = try openMigrating(url, to: PlannerV2.model(), from: [PlannerV1.model()])
                reports.withLock { $0.append(container.migrationReport) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        XCTAssertEqual(reports.withLock { $0.compactMap { $0 }.count }, 1, "exactly one open migrated")
        let container = try PersistentContainer(model: PlannerV2.model(), store: .sqlite(url))
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<PlannerV2.Task>()), 3)
    }
}
