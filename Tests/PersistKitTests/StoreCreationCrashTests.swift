import Dispatch
import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A process killed (SIGKILL) at any moment of its first open of a new store leaves a file
/// that the next open turns into a working store.
final class StoreCreationCrashTests: XCTestCase {
    static let childRole = "first-open"

    func testKilledDuringFirstOpenTheStoreOpensAgain() throws {
        let seed = testSeed("StoreCreationCrashTests.testKilledDuringFirstOpenTheStoreOpensAgain")
        var generator = SeededGenerator(seed: seed)
        let kills = ChildProcess.isCI ? 10 : 30
        let directory = TemporaryDirectory()
        // How long a child's first open takes (the median of three), so that the kills fall inside it.
        var openTimes: [Double] = []
        for index in 0..<3 {
            let outcome = try runChild(store: directory.file("calibration-\(index).sqlite"), killAfter: nil)
            openTimes.append(try XCTUnwrap(outcome, "the calibration child \(index) did not open its store"))
        }
        let openTime = openTimes.sorted()[1]
        var openedBeforeKill = 0
        var states: [String: Int] = [:]
        for index in 0..<kills {
            let delay = Double.random(in: 0...(openTime * 1.1), using: &generator)
            let url = directory.file("killed-\(index).sqlite")
            if try runChild(store: url, killAfter: delay) != nil { openedBeforeKill += 1 }
            let state = Self.fileState(url)
            states[state, default: 0] += 1
            do {
                try checkReopens(url)
            } catch {
                XCTFail("kill \(index) after \(String(format: "%.2f", delay * 1000)) ms (left \(state), seed \(seed)): "
                        + "the store does not open again: \(error)")
            }
        }
        print("StoreCreationCrashTests: a first open takes \(openTimes.map { String(format: "%.1f", $0 * 1000) }) ms; "
              + "\(kills - openedBeforeKill) of \(kills) kills fell inside it; files left: "
              + states.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)x" }.joined(separator: ", "))
    }

    /// Which files a kill left: "none", or the store's size class with its -journal, -wal, -shm.
    private static func fileState(_ url: URL) -> String {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue else { return "none" }
        let companions = ["-journal", "-wal", "-shm"].filter { FileManager.default.fileExists(atPath: url.path + $0) }
        return (size == 0 ? "empty" : "db") + companions.joined()
    }

    /// An older PersistKit switched a new store to WAL before creating its schema; killed in
    /// between, it left a WAL-mode database with nothing in it, which is finished now.
    func testStoreWhoseCreationWasInterruptedIsFinished() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("unfinished.sqlite")
        try runRawSQL("PRAGMA journal_mode=WAL", on: url)
        XCTAssertGreaterThan(try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber).intValue, 0)
        try checkReopens(url)
    }

    /// A database another program made, with nothing in it yet, is still not taken over.
    func testEmptyForeignDatabaseIsRefused() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("foreign.sqlite")
        try runRawSQL("PRAGMA user_version = 7", on: url)
        let before = try directorySnapshot(directory.url)
        let error = expectPersistError(try PersistentContainer(model: taskModel(), store: .sqlite(url)), [.incompatibleModel])
        XCTAssertTrue(error?.message.contains("empty SQLite database") ?? false, error?.message ?? "")
        assertSameFiles(before, try directorySnapshot(directory.url))
    }

    /// Opens the store twice: it takes a save, and keeps its identifier and objects.
    private func checkReopens(_ url: URL) throws {
        let model = try ManagedObjectModel(entities: standardEntities)
        let identifier: String
        do {
            let container = try PersistentContainer(model: model, store: .sqlite(url))
            identifier = container.storeIdentifier
            let context = container.newContext()
            let task = TestTask(context: context)
            task.name = "after the kill"
            try context.save()
        }
        let container = try PersistentContainer(model: model, store: .sqlite(url))
        XCTAssertEqual(container.storeIdentifier, identifier)
        XCTAssertEqual(try container.newContext().fetch(FetchRequest<TestTask>()).map(\.name), ["after the kill"])
    }

    /// Runs a child that opens a new store at `url` and is killed `killAfter` seconds after it
    /// starts opening (never, for nil). Returns how long the open took, nil if it was killed first.
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
            XCTAssertEqual(child.terminationStatus, SIGKILL)
        }
        guard let text, text.hasPrefix("opened ") else {
            if let text { XCTFail("the child could not open a new store: \(text)") }
            return nil
        }
        return Double(text.dropFirst("opened ".count))
    }

    /// The child: arms a SIGKILL timer, opens the store, reports, and waits for the kill.
    static func playChild() -> Int32 {
        guard let store = ChildProcess.setting("STORE"), let report = ChildProcess.setting("REPORT"),
              let model = try? ManagedObjectModel(entities: standardEntities) else { return 2 }
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
            let container = try PersistentContainer(model: model, store: .sqlite(URL(fileURLWithPath: store)))
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            ChildProcess.report("opened \(seconds)", to: report)
            // Killed with the store open, as a crashing application would be.
            while timer != nil { pause() }
            withExtendedLifetime(container) {}
            return 0
        } catch {
            ChildProcess.report("error \(error)", to: report)
            return 1
        }
    }
}
