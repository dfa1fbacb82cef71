import Foundation
import Logging
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// What a container and its contexts log through swift-log, at which level, and what they never
/// log: statements at trace (with their bound values only when asked), saves, fetches and merges
/// at debug, slow statements at notice with their plan, conflicts and lock waits at warning;
/// with no logger, or one above the levels used, nothing is installed at all.
final class LoggingTests: XCTestCase {
    private func container(_ recorder: LogRecorder, level: Logger.Level, url: URL? = nil,
                           configure: (inout PersistentContainer.Options) -> Void = { _ in }) throws -> PersistentContainer {
        var options = PersistentContainer.Options(logger: recorder.logger(level: level))
        configure(&options)
        return try PersistentContainer(model: taskModel(), store: url.map { .sqlite($0) } ?? .inMemory, options: options)
    }

    private func addTasks(_ context: ManagedObjectContext, _ names: [String]) throws {
        for name in names {
            let task = TestTask(context: context)
            task.name = name
        }
        try context.save()
    }

    func testTraceLogsEveryStatementWithItsTimeAndBoundCountButNoValues() throws {
        let recorder = LogRecorder()
        let container = try container(recorder, level: .trace)
        let context = container.newContext()
        try addTasks(context, ["secret plans"])
        _ = try context.fetch(FetchRequest<TestTask>(predicate: \.name == "secret plans"))
        let statements = recorder.all.filter { $0.level == .trace }
        let select = try XCTUnwrap(statements.first { $0.message.contains("FROM \"Task\" WHERE") }, "\(statements.map(\.message))")
        XCTAssertTrue(select.message.contains(" ms, 1 bound: SELECT"), select.message)
        XCTAssertEqual(select.metadata["bound"], "1")
        XCTAssertNotNil(select.metadata["duration_ms"].flatMap { Double("\($0)") })
        XCTAssertTrue(statements.contains { $0.message.contains("INSERT INTO \"Task\"") })
        XCTAssertTrue(statements.contains { $0.message.contains("BEGIN IMMEDIATE") })
        XCTAssertFalse(recorder.all.contains { $0.message.contains("secret plans") || "\($0.metadata)".contains("secret plans") },
                       "values are never logged unless asked")
    }

    func testBoundValuesAreLoggedOnlyWhenAsked() throws {
        let recorder = LogRecorder()
        let container = try container(recorder, level: .trace) { $0.logsBoundValues = true }
        let context = container.newContext()
        try addTasks(context, ["secret plans"])
        XCTAssertTrue(recorder.messages(at: .trace).contains { $0.contains("'secret plans'") }, "\(recorder.messages(at: .trace))")
    }

    func testDebugLogsSavesFetchesAndCountsWithoutStatements() throws {
        let recorder = LogRecorder()
        let container = try container(recorder, level: .debug)
        let context = container.newContext()
        context.name = "editor"
        try addTasks(context, ["a", "b", "c"])
        let tasks = try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.name)]))
        tasks[0].name = "a2"
        context.delete(tasks[1])
        try context.save()
        XCTAssertEqual(try context.count(for: FetchRequest<TestTask>()), 2)
        let debug = recorder.messages(at: .debug)
        XCTAssertEqual(recorder.messages(at: .trace), [], "statements are trace")
        XCTAssertTrue(debug.contains { $0.hasPrefix("save: 3 inserted, 0 updated, 0 deleted; ") && $0.hasSuffix(" ms") }, "\(debug)")
        XCTAssertTrue(debug.contains { $0.hasPrefix("save: 0 inserted, 1 updated, 1 deleted; ") }, "\(debug)")
        XCTAssertTrue(debug.contains { $0.hasPrefix("fetch Task: 3 rows in ") }, "\(debug)")
        XCTAssertTrue(debug.contains { $0.hasPrefix("count Task: 2 rows in ") }, "\(debug)")
        XCTAssertEqual(recorder.all.first { $0.message.hasPrefix("save:") }?.metadata["context"], "editor")
    }

    /// Rows written count the rows of the save's statements: the objects' rows, the history
    /// record and the metadata's primary-key high-water mark.
    func testSaveLogCountsTheRowsWritten() throws {
        let recorder = LogRecorder()
        let container = try container(recorder, level: .debug)
        try addTasks(container.newContext(), ["a", "b"])
        let save = try XCTUnwrap(recorder.messages(at: .debug).first { $0.hasPrefix("save:") })
        let rows = try XCTUnwrap(save.components(separatedBy: "; ").last?.split(separator: " ").first.flatMap { Int($0) })
        XCTAssertGreaterThanOrEqual(rows, 2, save)
        XCTAssertLessThanOrEqual(rows, 5, save)
    }

    func testMergesAreDebugAndConflictsWarnings() throws {
        let directory = TemporaryDirectory()
        let recorder = LogRecorder()
        let container = try container(recorder, level: .debug, url: directory.file("store.sqlite"))
        let first = container.newContext(), second = container.newContext()
        try addTasks(first, ["shared"])
        let mine = try XCTUnwrap(second.fetch(FetchRequest<TestTask>()).first)
        let theirs = try XCTUnwrap(first.fetch(FetchRequest<TestTask>()).first)
        recorder.clear()
        theirs.name = "theirs"
        try first.save()
        mine.name = "mine"
        expectPersistError(try second.save(), [.conflict])
        XCTAssertTrue(recorder.messages(at: .warning).contains { $0.hasPrefix("save refused, conflict (merge policy error): ") },
                      "\(recorder.messages(at: .warning))")
        second.mergePolicy = .objectTrump
        try second.save()
        XCTAssertTrue(recorder.messages(at: .warning).contains { $0.contains("settled by merge policy objectTrump") },
                      "\(recorder.messages(at: .warning))")
        recorder.clear()
        first.processPendingChanges()
        XCTAssertTrue(recorder.messages(at: .debug).contains { $0.hasPrefix("merge: 1 save of other contexts: 0 inserted, 1 updated, 0 deleted") },
                      "\(recorder.messages(at: .debug))")
        XCTAssertFalse(recorder.all.contains { $0.message.contains("mine") || $0.message.contains("theirs") }, "no values")
    }

    func testAContextsLoggerOverridesTheContainersForItsOwnEvents() throws {
        let containerRecorder = LogRecorder(), contextRecorder = LogRecorder()
        let container = try container(containerRecorder, level: .debug)
        let context = container.newContext()
        XCTAssertNotNil(context.logger, "a new context starts with the container's logger")
        context.logger = contextRecorder.logger(level: .debug, label: "import")
        try addTasks(context, ["a"])
        XCTAssertTrue(contextRecorder.messages(at: .debug).contains { $0.hasPrefix("save: 1 inserted") })
        XCTAssertFalse(containerRecorder.messages(at: .debug).contains { $0.hasPrefix("save:") })
        context.logger = nil
        try addTasks(context, ["b"])
        XCTAssertEqual(contextRecorder.messages(at: .debug).filter { $0.hasPrefix("save:") }.count, 1, "nil logs nothing")
    }

    /// The level is read once: a logger above warning leaves no sink, and one above trace
    /// installs no statement hook on any connection (nothing runs per statement).
    func testLevelsAboveWhatIsLoggedInstallNothing() throws {
        let recorder = LogRecorder()
        XCTAssertNil(try container(recorder, level: .error).store.logSink)
        XCTAssertNil(try PersistentContainer(model: taskModel(), store: .inMemory).store.logSink)
        let info = try container(recorder, level: .info).store
        XCTAssertEqual(info.logSink?.watchesStatements, false)
        XCTAssertEqual(try info.withConnection { $0.logSink?.watchesStatements }, false)
        XCTAssertEqual(try container(recorder, level: .info) { $0.slowStatementThreshold = .milliseconds(5) }.store.logSink?.watchesStatements,
                       true, "watching for slow statements installs the hook")
        XCTAssertEqual(try container(recorder, level: .error) { $0.slowStatementThreshold = .milliseconds(5) }.store.logSink?.watchesStatements,
                       nil, "not when notices are not logged")
        let context = try container(recorder, level: .info).newContext()
        try addTasks(context, ["a"])
        _ = try context.fetch(FetchRequest<TestTask>())
        XCTAssertEqual(recorder.all.map(\.message), [])
    }

    func testSlowStatementsAreNoticesWithTheirPlanAndWhatTheyScan() throws {
        let directory = TemporaryDirectory()
        let recorder = LogRecorder()
        let container = try container(recorder, level: .notice, url: directory.file("store.sqlite")) { $0.slowStatementThreshold = .zero }
        let context = container.newContext()
        try addTasks(context, ["a", "b"])
        recorder.clear()
        _ = try context.fetch(FetchRequest<TestTask>(predicate: \.count > 3))
        let notices = recorder.messages(at: .notice)
        let notice = try XCTUnwrap(notices.first { $0.contains("SELECT") && $0.contains("\"count\"") }, "\(notices)")
        XCTAssertTrue(notice.hasPrefix("slow statement, "), notice)
        XCTAssertTrue(notice.contains("(threshold 0.000 ms)"), notice)
        XCTAssertTrue(notice.contains("| query plan: SCAN Task"), notice)
        XCTAssertTrue(notice.contains("scans Task, reading every row to test count: no index of Task starts with it"), notice)
        XCTAssertEqual(recorder.messages(at: .trace), [])
    }

    /// A scan where an index exists on the tested column, but the condition's form (a
    /// case-insensitive comparison) keeps SQLite from using it: the notice says it could have searched.
    func testSlowStatementNoticeSaysWhenAnIndexCouldHaveBeenSearched() throws {
        let directory = TemporaryDirectory()
        let recorder = LogRecorder()
        let container = try container(recorder, level: .notice, url: directory.file("store.sqlite")) { $0.slowStatementThreshold = .zero }
        try container.store.withConnection { try $0.execute("CREATE INDEX task_name ON \"Task\" (\"name\")") }
        let context = container.newContext()
        recorder.clear()
        _ = try context.fetch(FetchRequest<TestTask>(predicate: .contains(\.name, "x", options: .caseInsensitive)))
        XCTAssertTrue(recorder.messages(at: .notice).contains { $0.contains("scans Task though its index task_name could search it by name") },
                      "\(recorder.messages(at: .notice))")
    }

    func testMigrationsAreDebug() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("old.sqlite")
        try writeStore(at: url, model: PlannerV1.model()) { context in
            PlannerV1.Task(context: context).title = "one"
        }
        let recorder = LogRecorder()
        _ = try PersistentContainer(model: PlannerV2.model(), store: .sqlite(url),
                                    options: .init(migrationPlan: MigrationPlan(models: [PlannerV1.model()]),
                                                   logger: recorder.logger(level: .debug)))
        let debug = recorder.messages(at: .debug)
        XCTAssertTrue(debug.contains { $0.contains("stage 1 of 1, version 1 to 2") }, "\(debug)")
        XCTAssertTrue(debug.contains { $0.hasPrefix("migrated \(url.path) from version 1 to 2: 1 objects in ") }, "\(debug)")
    }
}
