import Foundation
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM as a flag a loop can poll: `watch` stops cleanly, closes its
/// store and exits 0 instead of being killed mid-write.
enum Interrupt {
    /// Set by the signal handler; an atomic store is safe inside a signal handler.
    private static let flag = Atomic<Bool>(false)

    /// Routes SIGINT and SIGTERM to the flag.
    static func install() {
        _ = wasRequested   // initialise the flag now: lazy initialisation is not signal-safe
        for signalNumber in [SIGINT, SIGTERM] {
            _ = signal(signalNumber) { _ in Interrupt.flag.store(true, ordering: .relaxed) }
        }
    }

    /// Whether a stop was asked for.
    static var wasRequested: Bool { flag.load(ordering: .relaxed) }
}
