import CSQLite
import Foundation

/// A connection's busy handler: while another connection or process holds a lock SQLite
/// needs, it sleeps in short, jittered steps until the connection's busy timeout has passed.
///
/// SQLite's own handler (`sqlite3_busy_timeout`) backs off to 100 ms sleeps: with two
/// processes saving in turns, the one that waits keeps waking up after the other has taken
/// the lock again. Short sleeps let the lock change hands fairly.
final class BusyWait {
    private let timeout: UInt64
    private var started: UInt64 = 0
    /// How many times a lock was found busy and waited for (for logging lock waits).
    private(set) var waitCount = 0

    init(timeout: TimeInterval) {
        self.timeout = UInt64(max(0, min(timeout, 1e6)) * 1e9)
    }

    /// Makes this the busy handler of `handle`; the connection keeps this object alive.
    func install(on handle: OpaquePointer) {
        sqlite3_busy_handler(handle, { context, attempts in
            guard let context else { return 0 }
            return Unmanaged<BusyWait>.fromOpaque(context).takeUnretainedValue().shouldRetry(after: attempts) ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Called by SQLite (on the connection's thread) each time a lock is busy: `attempts` is
    /// how many times it already called for this lock. Sleeps and says whether to try again.
    private func shouldRetry(after attempts: Int32) -> Bool {
        let now = BusyWait.now()
        if attempts == 0 {
            started = now
            waitCount &+= 1
        }
        guard now - started < timeout else { return false }
        // 0.1 to 0.5 ms at first, up to 0.1 to 2 ms: short against a save, long against a spin.
        let ceiling = UInt32(min(2_000, 500 + Int(attempts) * 50))
        usleep(UInt32.random(in: 100...ceiling))
        return true
    }

    /// Monotonic nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
