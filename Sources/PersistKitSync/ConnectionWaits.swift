import Foundation
import PersistKit
import Synchronization

/// The waits under way on one server connection, all failed when the connection ends, so that
/// no statement outlives its connection (see ``BoundedWait``). Once ended, every new wait fails
/// at once.
final class ConnectionWaits: Sendable {
    private struct State {
        var ended: PersistError?
        var next: UInt64 = 0
        var waiting: [UInt64: @Sendable (PersistError) -> Void] = [:]
    }

    private let state = Mutex(State())

    /// Registers a wait; `fail` is called when the connection ends (at once if it has).
    func add(_ fail: @escaping @Sendable (PersistError) -> Void) -> UInt64 {
        let (id, ended) = state.withLock { state -> (UInt64, PersistError?) in
            state.next += 1
            if state.ended == nil { state.waiting[state.next] = fail }
            return (state.next, state.ended)
        }
        if let ended { fail(ended) }
        return id
    }

    /// Whether the connection has ended.
    var hasEnded: Bool { state.withLock { $0.ended != nil } }

    /// Removes a wait that ended.
    func remove(_ id: UInt64) {
        _ = state.withLock { $0.waiting.removeValue(forKey: id) }
    }

    /// The connection ended: fails every wait with `error`, and every later one.
    func end(_ error: PersistError) {
        let waiting = state.withLock { state -> [@Sendable (PersistError) -> Void] in
            guard state.ended == nil else { return [] }
            state.ended = error
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for fail in waiting { fail(error) }
    }
}
