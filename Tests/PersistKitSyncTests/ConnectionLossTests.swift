import Foundation
import PersistKit
import PersistKitTestSupport
@testable import PersistKitSync
import XCTest

/// Every wait for the server ends: a statement on a connection the server closed fails at
/// once, a server that stops answering fails the statement after the response timeout, and a
/// continuous engine stops and picks up again across a server restart. Each is bounded by a
/// ``Deadline`` that does not wait for the engine: a wait that never ends fails the test.
final class ConnectionLossTests: SyncTestCase {
    /// PostgresNIO drops a statement written to a connection whose channel has closed (its
    /// promise is never completed): without the session's own bound, this waited forever.
    func testAStatementOnAConnectionTheServerClosedFailsAtOnce() async throws {
        let server = try self.server()
        let session = try await ServerSession.connect(to: server)
        let pids: [Int32] = try await session.rows("SELECT pg_backend_pid()", as: Int32.self)
        let pid = pids.first ?? 0
        try postgres.psql("SELECT pg_terminate_backend(\(pid))", database: database)
        try await session.connection.closeFuture.get()
        // The channel's handlers are removed soon after it closes: a statement now meets none.
        try await Task.sleep(nanoseconds: 100_000_000)
        for statement in ["SELECT 1", "ROLLBACK"] {
            let error = try await Deadline.run(seconds: 20, "\(statement) on a closed connection") { () async -> PersistError? in
                do {
                    try await session.execute(statement)
                    return nil
                } catch {
                    return error as? PersistError
                }
            }
            XCTAssertEqual(error?.code, .sync, "\(statement): \(error.map { "\($0)" } ?? "no error")")
            XCTAssertEqual(error?.server, server.displayName)
        }
    }

    func testAServerThatStopsAnsweringFailsTheStatementAfterTheResponseTimeout() async throws {
        var server = try self.server()
        server.responseTimeout = 1
        let session = try await ServerSession.connect(to: server)
        let pids: [Int32] = try await session.rows("SELECT pg_backend_pid()", as: Int32.self)
        let pid = pids.first ?? 0
        // The server process serving this connection is frozen: the connection stays open, silent.
        XCTAssertEqual(kill(pid_t(pid), SIGSTOP), 0)
        defer { kill(pid_t(pid), SIGCONT) }
        let error = try await Deadline.run(seconds: 30, "a statement to a silent server") { () async -> PersistError? in
            do {
                try await session.execute("SELECT 1")
                return nil
            } catch {
                return error as? PersistError
            }
        }
        XCTAssertEqual(error?.code, .sync)
        XCTAssertTrue(error?.message.contains("did not answer within 1 s") == true, "\(error.map { "\($0)" } ?? "no error")")
        try await Deadline.run(seconds: 20, "closing the silent connection") { try await session.connection.closeFuture.get() }
    }

    func testARoundAgainstASilentServerFailsAndTheNextOneCompletes() async throws {
        let a = try makeContainer("a")
        let engine = try self.engine(a, responseTimeout: 1)
        try await engine.sync()
        let context = a.newContext()
        SNote(context: context).title = "queued"
        try context.save()
        // Freeze every server process: the round's connection and any new one stay silent.
        let postmaster = try postmasterPID()
        let backends = try postgres.psql("SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' "
                                          + "AND pid <> pg_backend_pid()", database: database)
            .split(separator: "\n").compactMap { pid_t($0) }
        for pid in [postmaster] + backends { kill(pid, SIGSTOP) }
        let error = try await Deadline.run(seconds: 60, "a round against a silent server") { () async -> PersistError? in
            do {
                try await engine.sync()
                return nil
            } catch {
                return error as? PersistError
            }
        }
        for pid in [postmaster] + backends { kill(pid, SIGCONT) }
        XCTAssertEqual(error?.code, .sync, "\(error.map { "\($0)" } ?? "no error")")
        let report = try await Deadline.run(seconds: 60, "the round after the server answers again") { try await engine.sync() }
        XCTAssertEqual(report.sent, 1, "the queued note is pushed")
    }

    func testAContinuousEngineSyncsAgainAfterAServerRestartAndStops() async throws {
        let postgres = try self.postgres
        let a = try makeContainer("a"), b = try makeContainer("b")
        let engineA = try engine(a)
        let engineB = try engine(b) { $0.retryInterval = 0.1 }
        try await engineA.sync()
        engineB.start()
        try await waitUntil("B listens") { engineB.listenerConnections >= 1 }
        try await Deadline.run(seconds: 120, "stopping the server") { try postgres.stopServer() }
        try postgres.launch()
        let context = a.newContext()
        SNote(context: context).title = "after the restart"
        try context.save()
        try await Deadline.run(seconds: 60, "A's round after the restart") { try await engineA.sync() }
        try await waitUntil("B pulled A's note", timeout: 60) {
            (try? b.newContext().fetch(FetchRequest<SNote>()).map(\.title)) == ["after the restart"]
        }
        // Its listener tries again after pauses that double while the server is down.
        try await waitUntil("B listens again", timeout: 60) { engineB.listenerConnections >= 2 }
        try await Deadline.run(seconds: 60, "stopping B") { await engineB.stop() }
        XCTAssertFalse(engineB.isRunning)
    }

    func testStoppingAContinuousEngineWhileTheServerIsDownEnds() async throws {
        let postgres = try self.postgres
        let a = try makeContainer("a")
        let engineA = try engine(a) { $0.retryInterval = 0.05 }
        try await engineA.sync()
        engineA.start()
        try await waitUntil("A listens") { engineA.listenerConnections >= 1 }
        try await Deadline.run(seconds: 120, "stopping the server") { try postgres.stopServer() }
        let context = a.newContext()
        SNote(context: context).title = "while the server is down"
        try context.save()
        try await Task.sleep(nanoseconds: 300_000_000)
        try await Deadline.run(seconds: 60, "stopping A while its server is down") { await engineA.stop() }
        try postgres.launch()
        let report = try await Deadline.run(seconds: 60, "A's round after the restart") { try await engineA.sync() }
        XCTAssertEqual(report.sent, 1, "the note saved while the server was down is pushed")
    }

    // MARK: Helpers

    private func engine(_ container: PersistentContainer, responseTimeout: TimeInterval) throws -> SyncEngine {
        var server = try self.server()
        server.responseTimeout = responseTimeout
        var configuration = SyncConfiguration()
        configuration.excludedEntities = ["SLocal"]
        return SyncEngine(container: container, server: server, space: "space", configuration: configuration)
    }

    /// The server's main process (its first line of `postmaster.pid`).
    private func postmasterPID() throws -> pid_t {
        let text = try String(contentsOfFile: postgres.dataDirectory + "/postmaster.pid", encoding: .utf8)
        return try XCTUnwrap(text.split(separator: "\n").first.flatMap { pid_t($0) })
    }
}
