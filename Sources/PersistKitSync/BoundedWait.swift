import Foundation
import Synchronization

/// One wait for the network that always ends: with the operation's own result, or with an
/// error when its deadline passes, its connection ends (``ConnectionWaits``) or its task is
/// cancelled, whichever comes first.
///
/// PostgresNIO's statements cannot be relied on to end by themselves: a statement written to a
/// connection whose channel has just closed is dropped with its promise never completed, and
/// its `await` never returns. So the operation runs in a task of its own, and the waiter is
/// resumed by whichever outcome comes first; an operation that ends later (or never) is left
/// behind, its late result handed to `orphaned` (a connection that arrived too late is closed).
final class BoundedWait<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        /// The outcome, once there is one; the first one wins.
        var outcome: Result<T, any Error>?
        var operation: Task<Void, Never>?
        var timer: Task<Void, Never>?
    }

    private let state = Mutex(State())

    private init() {}

    /// Runs `operation` and waits for it at most `timeout` seconds (nil: no deadline) and no
    /// longer than `waits`' connection lives.
    ///
    /// - Parameters:
    ///   - timedOut: the error thrown when the deadline passes; `onTimeout` runs then too (it
    ///     closes the connection, whose statement may still be under way).
    ///   - orphaned: gets a result the operation produced after the wait had ended.
    static func run(timeout: TimeInterval?, waits: ConnectionWaits? = nil, timedOut: @escaping @Sendable () -> any Error,
                    onTimeout: @escaping @Sendable () -> Void = {}, orphaned: @escaping @Sendable (T) -> Void = { _ in },
                    _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let wait = BoundedWait<T>()
        let registration = waits?.add { error in wait.finish(.failure(error)) }
        defer { if let registration { waits?.remove(registration) } }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                wait.install(continuation)
                let task = Task {
                    let result: Result<T, any Error>
                    do { result = .success(try await operation()) } catch { result = .failure(error) }
                    if !wait.finish(result), case .success(let late) = result { orphaned(late) }
                }
                let timer = timeout.map { seconds in
                    Task {
                        try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
                        guard !Task.isCancelled, let ending = wait.claim(.failure(timedOut())) else { return }
                        // The connection is closed before the waiter goes on, so that nothing
                        // it does next meets the connection still open.
                        onTimeout()
                        ending.complete()
                    }
                }
                wait.started(operation: task, timer: timer)
            }
        } onCancel: {
            wait.finish(.failure(CancellationError()))
        }
    }

    private func install(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLock { state -> Result<T, any Error>? in
            guard let outcome = state.outcome else {
                state.continuation = continuation
                return nil
            }
            return outcome
        }
        if let early { continuation.resume(with: early) }
    }

    /// Keeps the tasks to cancel when the wait ends (at once when it has ended already).
    private func started(operation: Task<Void, Never>, timer: Task<Void, Never>?) {
        let ended = state.withLock { state -> Bool in
            state.operation = operation
            state.timer = timer
            return state.outcome != nil
        }
        if ended {
            timer?.cancel()
            operation.cancel()
        }
    }

    /// Ends the wait with `outcome`, unless it has ended already; whether this ended it.
    @discardableResult
    private func finish(_ outcome: Result<T, any Error>) -> Bool {
        guard let ending = claim(outcome) else { return false }
        ending.complete()
        return true
    }

    /// What ending a wait leaves to do: resume its waiter, stop its timer and, when it lost
    /// the race, its operation.
    private struct Ending {
        let outcome: Result<T, any Error>
        let continuation: CheckedContinuation<T, any Error>?
        let operation: Task<Void, Never>?
        let timer: Task<Void, Never>?

        func complete() {
            timer?.cancel()
            // An operation that lost the race is told to stop (PostgresNIO's own waits that
            // honour cancellation then end too); one that cannot is left behind.
            if case .failure = outcome { operation?.cancel() }
            continuation?.resume(with: outcome)
        }
    }

    /// Records `outcome` as the wait's, unless it has one already.
    private func claim(_ outcome: Result<T, any Error>) -> Ending? {
        state.withLock { state -> Ending? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.continuation = nil }
            return Ending(outcome: outcome, continuation: state.continuation, operation: state.operation, timer: state.timer)
        }
    }
}
