import Foundation
import PersistKit
import PersistKitTestSupport
@testable import PersistKitSync
import XCTest

/// Faults: a syncing process killed (SIGKILL) mid-push and mid-pull, the server stopped and
/// started again mid-round, the `LISTEN` connection dropped. Nothing is lost, nothing is
/// duplicated, and the next round completes.
final class SyncFaultTests: SyncTestCase {
    static let childRole = "sync-kill"

    // MARK: The child

    /// In a child: syncs the store at `STORE` with the server at `URL`, and kills itself
    /// (SIGKILL) `DELAY` milliseconds after the round reaches phase `PHASE`.
    static func playChild() -> Int32 {
        guard let store = SyncChild.setting("STORE"), let url = SyncChild.setting("URL"), let phase = SyncChild.setting("PHASE"),
              let delay = SyncChild.setting("DELAY").flatMap(Int.init) else { return 2 }
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                let container = try PersistentContainer(model: SyncModel.make(), store: .sqlite(URL(fileURLWithPath: store)))
                var configuration = SyncConfiguration()
                configuration.excludedEntities = ["SLocal"]
                configuration.batchSize = 200
                let engine = SyncEngine(container: container, server: try SyncServer(url: url), space: "space", configuration: configuration)
                Task.detached {
                    for await step in engine.progress where step.phase.rawValue == phase {
                        usleep(useconds_t(delay * 1_000))
                        kill(getpid(), SIGKILL)
                    }
                }
                try await engine.sync()
            } catch {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
            }
            done.signal()
        }
        done.wait()
        return 0
    }

    // MARK: SIGKILL

    /// Adds `count` notes, edits some and deletes some of those there, on `container`.
    private func change(_ container: PersistentContainer, round: Int, count: Int) throws {
        let context = container.newContext()
        let existing = try context.fetch(FetchRequest<SNote>())
        for (index, note) in existing.enumerated() where index % 7 == round % 7 { note.count += 1 }
        for (index, note) in existing.enumerated() where index % 11 == round % 11 { context.delete(note) }
        for index in 0..<count {
            let note = SNote(context: context)
            note.title = "r\(round) n\(index)"
        }
        try context.save()
    }

    private func serverNoteCount() throws -> Int {
        Int(try postgres.psql("SELECT count(*) FROM persistkit_sync.objects WHERE entity = 'SNote' AND deleted IS NULL "
                              + "AND merged_into IS NULL", database: database)) ?? -1
    }

    /// Runs a child's round, killed `delay` ms into `phase`; whether the kill came before the
    /// round's end.
    private func killedRound(store: URL, phase: SyncProgress.Phase, delay: Int) throws -> Bool {
        let child = try SyncChild.start(role: Self.childRole, settings: ["STORE": store.path, "URL": try serverURL(),
                                                                         "PHASE": phase.rawValue, "DELAY": String(delay)])
        let ending = SyncChild.wait(for: child, timeout: 120)
        XCTAssertNotNil(ending, "the child ended (killed or done)")
        return ending == .killed(SIGKILL)
    }

    func testAProcessKilledMidPushLosesAndDuplicatesNothing() async throws {
        let kills = testSize("SyncFaultTests kills mid-push", full: 20, ci: 10)
        let seed = testSeed("SyncFaultTests mid-push")
        var generator = SeededGenerator(seed: seed)
        let store = directory.file("a.sqlite")
        let a = try PersistentContainer(model: SyncModel.make(), store: .sqlite(store))
        let engineA = try engine(a) { $0.batchSize = 200 }
        let b = try makeContainer("b")
        let engineB = try engine(b)
        var killed = 0
        for round in 0..<kills {
            try change(a, round: round, count: 600)
            if try killedRound(store: store, phase: .pushing, delay: Int.random(in: 0..<40, using: &generator)) { killed += 1 }
            try await engineA.sync()
            let local = try a.newContext().count(for: FetchRequest<SNote>())
            XCTAssertEqual(try serverNoteCount(), local, "round \(round) (seed \(seed)): the server has each note once")
            let idle = try await engineA.sync()
            XCTAssertEqual(idle.sent, 0, "round \(round): nothing left to push")
        }
        try await engineB.sync()
        try XCTAssertEqual(GraphSnapshot.of(a), GraphSnapshot.of(b))
        print("SyncFaultTests: \(killed) of \(kills) pushing children killed mid-round")
        XCTAssertGreaterThanOrEqual(killed, kills / 2, "most children die mid-round")
    }

    func testAProcessKilledMidPullLosesAndDuplicatesNothing() async throws {
        let kills = testSize("SyncFaultTests kills mid-pull", full: 20, ci: 10)
        let seed = testSeed("SyncFaultTests mid-pull")
        var generator = SeededGenerator(seed: seed)
        let a = try makeContainer("a")
        let engineA = try engine(a)
        let store = directory.file("b.sqlite")
        let b = try PersistentContainer(model: SyncModel.make(), store: .sqlite(store))
        let engineB = try engine(b) { $0.batchSize = 200 }
        try await engineB.sync()
        var killed = 0
        for round in 0..<kills {
            try change(a, round: round, count: 600)
            try await engineA.sync()
            if try killedRound(store: store, phase: .pulling, delay: Int.random(in: 0..<60, using: &generator)) { killed += 1 }
            try await engineB.sync()
            try XCTAssertEqual(GraphSnapshot.of(b), GraphSnapshot.of(a), "round \(round) (seed \(seed))")
            XCTAssertEqual(try serverNoteCount(), try b.newContext().count(for: FetchRequest<SNote>()))
            let idle = try await engineB.sync()
            XCTAssertEqual(idle.sent, 0, "round \(round): B pushes nothing back")
        }
        print("SyncFaultTests: \(killed) of \(kills) pulling children killed mid-round")
        XCTAssertGreaterThanOrEqual(killed, kills / 2, "most children die mid-round")
    }

    // MARK: The server stopped mid-round

    func testAServerStoppedMidRoundLeavesTheNextRoundToComplete() async throws {
        let postgres = try self.postgres
        let a = try makeContainer("a"), b = try makeContainer("b")
        let engineA = try engine(a) { $0.batchSize = 100 }
        let engineB = try engine(b)
        try await engineA.sync()
        try change(a, round: 0, count: 3_000)
        // The server is stopped from a thread of its own (pg_ctl blocks): never from the
        // cooperative pool the round runs on.
        let stopped = DispatchSemaphore(value: 0)
        let watcher = Task.detached {
            for await step in engineA.progress where step.phase == .pushing && step.sent > 0 {
                Thread.detachNewThread {
                    try? postgres.stopServer()
                    stopped.signal()
                }
                return
            }
        }
        // Bounded without waiting for the round: a round that never ends fails the test.
        let failed = try await Deadline.run(seconds: 120, "the round the server stopped under") {
            do {
                try await engineA.sync()
                return false
            } catch {
                XCTAssertEqual((error as? PersistError)?.code, .sync, "\(error)")
                return true
            }
        }
        XCTAssertTrue(failed, "the round failed when the server stopped")
        watcher.cancel()
        XCTAssertEqual(stopped.wait(timeout: .now() + 120), .success, "the server stopped")
        try postgres.launch()
        let report = try await Deadline.run(seconds: 120, "the round after the restart") { try await engineA.sync() }
        XCTAssertGreaterThan(report.sent, 0)
        try await engineB.sync()
        try XCTAssertEqual(GraphSnapshot.of(a), GraphSnapshot.of(b))
        XCTAssertEqual(try b.newContext().count(for: FetchRequest<SNote>()), 3_000)
    }

    // MARK: LISTEN

    func testAContinuousEngineReconnectsItsDroppedListenConnection() async throws {
        let a = try makeContainer("a"), b = try makeContainer("b")
        let engineA = try engine(a)
        let engineB = try engine(b)
        try await engineA.sync()
        engineB.start()
        defer { Task { await engineB.stop() } }
        try await waitUntil("B listens") { engineB.listenerConnections == 1 }
        // Cut B's LISTEN connection on the server side.
        try postgres.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
                          database: database)
        try await waitUntil("B listens again") { engineB.listenerConnections >= 2 }
        // Woken by the notification (its own timer would take half a minute).
        let context = a.newContext()
        let note = SNote(context: context)
        note.title = "after the reconnect"
        try context.save()
        try await engineA.sync()
        try await waitUntil("B pulled A's note") {
            (try? b.newContext().fetch(FetchRequest<SNote>()).map(\.title)) == ["after the reconnect"]
        }
        await engineB.stop()
    }
}
