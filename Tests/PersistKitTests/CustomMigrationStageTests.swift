import Foundation
import PersistKitTestSupport
import Synchronization
import XCTest
@testable import PersistKit

/// Custom stages and multi-version migrations: a store written by version 1 of the planner
/// model (classes in the test target) opened by versions 2 and 3, with code that runs on the
/// old model before a stage's schema change and on the new one after, all in one transaction.
final class CustomMigrationStageTests: XCTestCase {
    /// Version 1's tasks: notes carry a project ("@home") and hashtags ("#errands").
    private func writeVersion1Store(at url: URL) throws {
        try writeStore(at: url, model: PlannerV1.model()) { context in
            let rows: [(String, String?, Bool)] = [
                ("  Buy milk ", "@home #errands", false), ("Call Ada", "@work #calls #urgent", true),
                ("File taxes", nil, false), ("Walk", "#health", true),
            ]
            for (index, (title, notes, done)) in rows.enumerated() {
                let task = PlannerV1.Task(context: context)
                task.title = title
                task.notes = notes
                task.done = done
                task.due = Date(timeIntervalSinceReferenceDate: 1_000 * Double(index) + 0.125)
            }
        }
    }

    /// Stage 1 → 2: titles trimmed on the old model; projects and tags made from the notes on
    /// the new one (typed through each version's classes).
    private static let stage1to2 = MigrationStage.custom(from: 1, to: 2, willMigrate: { context in
        XCTAssertEqual(context.model.version, 1)
        for task in try context.fetch(FetchRequest<PlannerV1.Task>()) {
            task.title = task.title.trimmingCharacters(in: .whitespaces)
        }
        try context.save()
    }, didMigrate: { context in
        XCTAssertEqual(context.model.version, 2)
        var projects: [String: PlannerV2.Project] = [:]
        var tags: [String: PlannerV2.Tag] = [:]
        for task in try context.fetch(FetchRequest<PlannerV2.Task>(sortBy: [FetchSortDescriptor(\.name)])) {
            for word in (task.notes ?? "").split(separator: " ") {
                let name = String(word.dropFirst())
                if word.hasPrefix("@") {
                    let project = projects[name] ?? PlannerV2.Project(context: context)
                    project.name = name
                    projects[name] = project
                    task.project = project
                } else if word.hasPrefix("#") {
                    let tag = tags[name] ?? PlannerV2.Tag(context: context)
                    tag.label = name
                    tags[name] = tag
                    task.tags.insert(tag)
                }
            }
        }
        // Left unsaved on purpose: the stage saves what its code leaves.
    })

    private func version1Plan() throws -> [ManagedObjectModel] { [try PlannerV1.model()] }

    func testVersion1StoreOpensWithVersion2() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("v1.sqlite")
        try writeVersion1Store(at: url)
        let container = try openMigrating(url, to: PlannerV2.model(), from: version1Plan(), stages: [Self.stage1to2])
        try assertSchemaMatchesFreshStore(container)
        XCTAssertEqual(container.migrationReport?.objectCounts, ["Task": 4, "Project": 2, "Tag": 4])
        let context = container.newContext()
        let tasks = try context.fetch(FetchRequest<PlannerV2.Task>(sortBy: [FetchSortDescriptor(\.name)]))
        XCTAssertEqual(tasks.map(\.name), ["Buy milk", "Call Ada", "File taxes", "Walk"])
        XCTAssertEqual(tasks.map { $0.project?.name }, ["home", "work", nil, nil])
        XCTAssertEqual(tasks.map { $0.tags.map(\.label).sorted() }, [["errands"], ["calls", "urgent"], [], ["health"]])
        XCTAssertEqual(tasks.map(\.priority), [1, 1, 1, 1], "the new attribute's default")
        XCTAssertEqual(tasks.map(\.done), [false, true, false, true])
        XCTAssertEqual(tasks.map { $0.due?.timeIntervalSinceReferenceDate }, [0.125, 1_000.125, 2_000.125, 3_000.125])
        XCTAssertEqual(tasks.map(\.notes), ["@home #errands", "@work #calls #urgent", nil, "#health"], "the text is unchanged")
    }

    /// Version 1 to 3 in one transaction: the custom stage, then the inferred renames
    /// (Project → Folder, project → folder, done → isComplete) and removals.
    func testVersion1StoreOpensWithVersion3() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("v1.sqlite")
        try writeVersion1Store(at: url)
        let reports = Mutex<[MigrationProgress]>([])
        let container = try openMigrating(url, to: PlannerV3.model(), from: [PlannerV1.model(), PlannerV2.model()],
                                          stages: [Self.stage1to2], progress: { progress in reports.withLock { $0.append(progress) } })
        try assertSchemaMatchesFreshStore(container)
        XCTAssertEqual(container.migrationReport?.fromVersion, 1)
        XCTAssertEqual(container.migrationReport?.toVersion, 3)
        XCTAssertEqual(try storedModelMetadata(container)["modelVersion"], "3")
        let progress = reports.withLock { $0 }
        XCTAssertEqual(Set(progress.map { "\($0.stage)/\($0.stageCount) \($0.fromVersion)→\($0.toVersion)" }), ["1/2 1→2", "2/2 2→3"])
        XCTAssertTrue(progress.contains { $0.step == "willMigrate" && $0.stage == 1 }, "\(progress)")
        XCTAssertTrue(progress.contains { $0.step == "didMigrate" && $0.stage == 1 }, "\(progress)")
        let context = container.newContext()
        let tasks = try context.fetch(FetchRequest<PlannerV3.Task>(sortBy: [FetchSortDescriptor(\.name)]))
        XCTAssertEqual(tasks.map(\.name), ["Buy milk", "Call Ada", "File taxes", "Walk"])
        XCTAssertEqual(tasks.map(\.isComplete), [false, true, false, true])
        XCTAssertEqual(tasks.map { $0.folder?.name }, ["home", "work", nil, nil])
        XCTAssertEqual(tasks.map { $0.tags.map(\.label).sorted() }, [["errands"], ["calls", "urgent"], [], ["health"]])
        XCTAssertEqual(tasks.map(\.estimate), [nil, nil, nil, nil])
        XCTAssertEqual(try context.fetch(FetchRequest<PlannerV3.Folder>()).map(\.isArchived), [false, false])
        // The migrated store works like a new one: unique folder names, new objects, saves.
        let folder = PlannerV3.Folder(context: context)
        folder.name = "home"
        expectPersistError(try context.save(), [.constraintViolation])
    }

    func testVersion2StoreOpensWithVersion3() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("v2.sqlite")
        try writeVersion1Store(at: url)
        _ = try openMigrating(url, to: PlannerV2.model(), from: version1Plan(), stages: [Self.stage1to2])
        let container = try openMigrating(url, to: PlannerV3.model(), from: [PlannerV1.model(), PlannerV2.model()], stages: [Self.stage1to2])
        XCTAssertEqual(container.migrationReport?.fromVersion, 2)
        let context = container.newContext()
        XCTAssertEqual(try context.fetch(FetchRequest<PlannerV3.Task>(sortBy: [FetchSortDescriptor(\.name)])).map { $0.folder?.name },
                       ["home", "work", nil, nil])
    }

    /// A stage's code that throws undoes the whole migration (version 1 → 3, the first stage
    /// already done): the store is still version 1 with every object as it was.
    func testFailingStageUndoesTheWholeMigration() throws {
        struct Refused: Error {}
        let directory = TemporaryDirectory()
        let url = directory.file("v1.sqlite")
        try writeVersion1Store(at: url)
        let failing = MigrationStage.custom(from: 2, to: 3, didMigrate: { _ in throw Refused() })
        XCTAssertThrowsError(try openMigrating(url, to: PlannerV3.model(), from: [PlannerV1.model(), PlannerV2.model()],
                                               stages: [Self.stage1to2, failing])) { error in
            XCTAssertTrue(error is Refused, "the stage's own error: \(error)")
        }
        let old = try PersistentContainer(model: PlannerV1.model(), store: .sqlite(url))
        XCTAssertEqual(try storedModelMetadata(old)["modelVersion"], "1")
        let context = old.newContext()
        XCTAssertEqual(try context.fetch(FetchRequest<PlannerV1.Task>(sortBy: [FetchSortDescriptor(\.due)])).map(\.title),
                       ["  Buy milk ", "Call Ada", "File taxes", "Walk"], "the first stage's trimming was undone too")
        XCTAssertEqual(try rows(old, "SELECT count(*) FROM sqlite_master WHERE name IN ('Project', 'Tag', 'Folder')"), [[.integer(0)]])
    }

    /// A stage's code that deletes objects: their links go too (SQLite's delete actions, which
    /// the migration, running with foreign-key enforcement off, applies itself), and every
    /// reference is checked before the commit.
    func testObjectsDeletedByAStageTakeTheirLinks() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("v2.sqlite")
        try writeVersion1Store(at: url)
        _ = try openMigrating(url, to: PlannerV2.model(), from: version1Plan(), stages: [Self.stage1to2])
        let cleanup = MigrationStage.custom(from: 2, to: 3, willMigrate: { context in
            for tag in try context.fetch(FetchRequest<PlannerV2.Tag>()) where tag.label == "calls" || tag.label == "health" {
                context.delete(tag)
            }
            for project in try context.fetch(FetchRequest<PlannerV2.Project>()) where project.name == "work" {
                context.delete(project)
            }
        })
        let container = try openMigrating(url, to: PlannerV3.model(), from: [PlannerV1.model(), PlannerV2.model()],
                                          stages: [Self.stage1to2, cleanup])
        let context = container.newContext()
        let tasks = try context.fetch(FetchRequest<PlannerV3.Task>(sortBy: [FetchSortDescriptor(\.name)]))
        XCTAssertEqual(tasks.map { $0.tags.map(\.label).sorted() }, [["errands"], ["urgent"], [], []])
        XCTAssertEqual(tasks.map { $0.folder?.name }, ["home", nil, nil, nil])
        XCTAssertEqual(try rows(container, "SELECT count(*) FROM _persistkit_join_Tag_tasks"), [[.integer(2)]])
    }

    /// A big table copied (a column made required) reports its rows as they are copied.
    func testCopyingReportsProgressInRows() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("big.sqlite")
        let version1 = try documentModel(1, [entity("Item", [attribute("value", "integer", optional: true)])])
        try writeStore(at: url, model: version1) { _ in }
        let count = SchemaMigrator.copyChunk * 2 + 123
        try runRawSQL("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count)) "
                      + "INSERT INTO Item (_pk, _version, value) SELECT i, 1, CASE WHEN i % 3 = 0 THEN NULL ELSE i END FROM n", on: url)
        let version2 = try documentModel(2, [entity("Item", [attribute("value", "integer", default: ["integer": -1])])])
        let reports = Mutex<[MigrationProgress]>([])
        let container = try openMigrating(url, to: version2, from: [version1], progress: { progress in reports.withLock { $0.append(progress) } })
        let copies = reports.withLock { $0 }.filter { $0.step == "copying Item" }
        XCTAssertEqual(copies.map(\.rowsDone), [0, SchemaMigrator.copyChunk, 2 * SchemaMigrator.copyChunk, count])
        XCTAssertTrue(copies.allSatisfy { $0.totalRows == count }, "\(copies)")
        XCTAssertEqual(try rows(container, "SELECT count(*), sum(value = -1), sum(value) FROM Item"),
                       [[.integer(Int64(count)), .integer(Int64(count / 3)), .integer(Int64(Self.sumNotDivisibleBy3(count) - count / 3))]])
        try assertSchemaMatchesFreshStore(container)
    }

    private static func sumNotDivisibleBy3(_ n: Int) -> Int {
        (1...n).filter { $0 % 3 != 0 }.reduce(0, +)
    }
}
