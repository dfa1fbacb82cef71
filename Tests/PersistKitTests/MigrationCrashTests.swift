import Dispatch
import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A process killed (SIGKILL) at any moment of a migration leaves the store whole: of version
/// 1 with every object as it was, or of version 2 with every object migrated; never between.
final class MigrationCrashTests: XCTestCase {
    static let childRole = "migrate"

    /// Version 1: Task (title, notes?, rank?). Version 2: title renamed name, notes required
    /// with a default (the table is copied), a project (a foreign key added) and Project.
    static func version1() throws -> ManagedObjectModel {
        try documentModel(1, [entity("Task", [attribute("title", "string"), attribute("notes", "string", optional: true),
                                               attribute("rank", "integer", optional: true)])])
    }

    static func version2() throws -> ManagedObjectModel {
        try documentModel(2, [
            entity("Task", [attribute("name", "string", originalName: "title"), attribute("notes", "string", default: ["text": ""]),
                            attribute("rank", "integer", optional: true)],
                   relationships: [relationship("project", to: "Project", inverse: "tasks")]),
            entity("Project", [attribute("name", "string")], relationships: [relationship("tasks", to: "Task", toMany: true, inverse: "project")],
                   unique: [["name"]]),
        ])
    }

    /// Version 2's custom stage: one project, holding the first 100 tasks.
    static let stage = MigrationStage.custom(from: 1, to: 2, didMigrate: { context in
        let project = try insert("Project", ["name": "Inbox"], into: context)
        var request = FetchRequest<ManagedObject>(entityName: "Task")
        request.fetchLimit = 100
        try project.setRelatedObjects(try context.fetch(request), forKey: "tasks")
    })

    func testKilledDuringMigrationTheStoreIsWhole() throws {
        let seed = testSeed("MigrationCrashTests.testKilledDuringMigrationTheStoreIsWhole")
        var generator = SeededGenerator(seed: seed)
        let kills = testSize("MigrationCrashTests kills", full: 20, ci: 6)
        let rowCount = testSize("MigrationCrashTests rows", full: 100_000, ci: 30_000)
        let directory = TemporaryDirectory()
        let template = directory.file("template.sqlite")
        try writeVersion1Store(at: template, rows: rowCount)
        let expected = try Self.digest(of: template, version: 1)
        var times: [Double] = []
        for index in 0..<3 {
            let url = try copy(template, to: directory.file("calibration-\(index).sqlite"))
            times.append(try XCTUnwrap(try runChild(store: url, killAfter: nil), "the calibration child \(index) migrated"))
        }
        let migrationTime = times.sorted()[1]
        var outcomes: [String: Int] = [:]
        for index in 0..<kills {
            let delay = Double.random(in: 0...(migrationTime * 1.1), using: &generator)
            let url = try copy(template, to: directory.file("killed-\(index).sqlite"))
            let finished = try runChild(store: url, killAfter: delay) != nil
            do {
                let version = try checkWhole(url, expected: expected)
                outcomes["version \(version)\(finished ? " (finished)" : "")", default: 0] += 1
            } catch {
                XCTFail("kill \(index) after \(String(format: "%.1f", delay * 1000)) ms (seed \(seed)): the store is not whole: \(error)")
            }
        }
        print("MigrationCrashTests: a migration of \(rowCount) rows takes \(times.map { String(format: "%.0f", $0 * 1000) }) ms; "
              + "after \(kills) kills the stores were " + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)x" }.joined(separator: ", "))
    }

    private func writeVersion1Store(at url: URL, rows: Int) throws {
        try writeStore(at: url, model: Self.version1()) { _ in }
        try runRawSQL("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows)) "
                      + "INSERT INTO Task (_pk, _version, title, notes, rank) SELECT i, 1, 'task ' || i, "
                      + "CASE WHEN i % 4 = 0 THEN NULL ELSE printf('note %d', i * 7) END, CASE WHEN i % 5 = 0 THEN NULL ELSE i % 1000 END FROM n",
                      on: url)
    }

    private func copy(_ template: URL, to url: URL) throws -> URL {
        try FileManager.default.copyItem(at: template, to: url)
        return url
    }

    /// What every row holds, summed so that any lost or changed value shows: count, and sums
    /// over each column weighted by the key. (Version 2's notes are '' where version 1's were nil.)
    private static func digest(of url: URL, version: Int) throws -> [SQLValue] {
        let model = version == 1 ? try version1() : try version2()
        let container = try PersistentContainer(model: model, store: .sqlite(url))
        let name = version == 1 ? "title" : "name"
        return try rows(container, "SELECT count(*), sum(_pk * length(\(name))), sum(_pk * length(coalesce(notes, ''))), "
                        + "sum(_pk * coalesce(rank, -1)), sum(unicode(substr(\(name), 6)) * _pk) FROM Task")[0]
    }

    /// Opens the killed store as it is (version 1, or version 2 if the migration committed),
    /// checks every row, then migrates it if it is still version 1 and checks again.
    private func checkWhole(_ url: URL, expected: [SQLValue]) throws -> Int {
        var version = 1
        do {
            let found = try Self.digest(of: url, version: 1)
            XCTAssertEqual(found, expected, "version 1, every row as it was")
        } catch let error as PersistError where error.code == .incompatibleModel && error.storeVersion == "2" {
            version = 2
        }
        if version == 1 {
            _ = try PersistentContainer(model: Self.version2(), store: .sqlite(url),
                                        options: .init(migrationPlan: MigrationPlan(models: [Self.version1()], stages: [Self.stage])))
        }
        XCTAssertEqual(try Self.digest(of: url, version: 2), expected, "version 2, every row migrated")
        let container = try PersistentContainer(model: Self.version2(), store: .sqlite(url))
        XCTAssertEqual(try rows(container, "SELECT count(*) FROM Task WHERE project = 1"), [[.integer(100)]])
        XCTAssertEqual(try rows(container, "SELECT name FROM Project"), [[.text("Inbox")]])
        return version
    }

    /// Runs a child that migrates the store at `url` and is killed `killAfter` seconds after
    /// it starts opening it (never, for nil). Returns how long the migration took, nil if the
    /// child was killed first.
    private func runChild(store url: URL, killAfter: Double?) throws -> Double? {
        let report = url.path + ".report"
        var settings = ["STORE": url.path, "REPORT": report]
        if let killAfter { settings["KILL_AFTER"] = String(killAfter) }
        let child = try ChildProcess.start(role: Self.childRole, settings: settings)
        XCTAssertTrue(ChildProcess.wait(for: child), "the child ends")
        defer { try? FileManager.default.removeItem(atPath: report) }
        let text = FileManager.default.contents(atPath: report).map { String(decoding: $0, as: UTF8.self) }
        if killAfter == nil {
            XCTAssertEqual(child.terminationReason, .exit, "the calibration child ends normally: \(text ?? "no report")")
        } else {
            XCTAssertEqual(child.terminationReason, .uncaughtSignal, "the child is killed: \(text ?? "no report")")
        }
        guard let text, text.hasPrefix("migrated ") else {
            if let text { XCTFail("the child could not migrate: \(text)") }
            return nil
        }
        return Double(text.dropFirst("migrated ".count))
    }

    /// The child: arms a SIGKILL timer, opens (migrates) the store, reports, and waits for the kill.
    static func playChild() -> Int32 {
        guard let store = ChildProcess.setting("STORE"), let report = ChildProcess.setting("REPORT"),
              let version1 = try? version1(), let version2 = try? version2() else { return 2 }
        let killAfter = ChildProcess.setting("KILL_AFTER").flatMap(Double.init)
        var timer: DispatchSourceTimer?
        if let killAfter {
            let source = DispatchSource.makeTimerSource(flags: .strict, queue: .global())
            source.schedule(deadline: .now() + killAfter, leeway: .nanoseconds(0))
            source.setEventHandler { kill(getpid(), SIGKILL) }
            source.resume()
            timer = source
        }
        let start = DispatchTime.now()
        do {
            let plan = MigrationPlan(models: [version1], stages: [stage])
            let container = try PersistentContainer(model: version2, store: .sqlite(URL(fileURLWithPath: store)),
                                                    options: .init(migrationPlan: plan))
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            ChildProcess.report("migrated \(seconds)", to: report)
            while timer != nil { pause() }
            withExtendedLifetime(container) {}
            return 0
        } catch {
            ChildProcess.report("error \(error)", to: report)
            return 1
        }
    }
}
