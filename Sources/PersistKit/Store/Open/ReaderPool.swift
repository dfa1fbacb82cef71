import Foundation

/// Read-only connections to a store file in WAL mode, as GRDB's `DatabasePool` keeps them:
/// each read borrows one, so reads run side by side and beside the writer's transaction, and
/// each reads one committed snapshot (SQLite's WAL readers never wait for the writer).
///
/// Connections are opened when needed, up to ``maximumCount``; a read that finds them all
/// busy waits for one to come back. A read never borrows a second connection while holding
/// one, so the pool cannot deadlock on itself.
final class ReaderPool: @unchecked Sendable {
    // @unchecked Sendable: `idle` and `openCount` are only touched while holding `condition`
    // (an NSCondition: the pool's lock). A connection taken out of `idle` belongs to the one
    // thread that took it until `giveBack` puts it back under the same lock.

    let maximumCount: Int
    private let condition = NSCondition()
    private var idle: [SQLiteConnection] = []
    private var openCount = 0
    private let open: () throws -> SQLiteConnection

    /// A pool of up to `maximumCount` connections, each made by `open`.
    init(maximumCount: Int, open: @escaping () throws -> SQLiteConnection) {
        self.maximumCount = max(1, maximumCount)
        self.open = open
    }

    /// Runs `body` with a reader connection that no other thread uses meanwhile.
    func withReader<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try take()
        defer { giveBack(connection) }
        return try body(connection)
    }

    /// How many connections are open now (for tests).
    var openConnections: Int {
        condition.lock()
        defer { condition.unlock() }
        return openCount
    }

    /// Closes the idle connections. The pool stays usable: it opens connections again when
    /// reads need them, and a connection in use at this moment returns to it as usual.
    func closeIdle() {
        condition.lock()
        let closing = idle
        idle.removeAll()
        openCount -= closing.count
        condition.unlock()
        _ = closing   // released here, outside the lock
    }

    private func take() throws -> SQLiteConnection {
        condition.lock()
        while idle.isEmpty && openCount >= maximumCount {
            condition.wait()
        }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        openCount += 1
        condition.unlock()
        do {
            // Opened outside the lock: other reads go on meanwhile.
            return try open()
        } catch {
            condition.lock()
            openCount -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func giveBack(_ connection: SQLiteConnection) {
        // A read that threw halfway must not leave its snapshot open: it would pin the WAL.
        if connection.hasOpenTransaction { try? connection.execute("ROLLBACK") }
        condition.lock()
        idle.append(connection)
        condition.signal()
        condition.unlock()
    }
}
