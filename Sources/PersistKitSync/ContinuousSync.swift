import Foundation
import PersistKit
import PostgresNIO
import Synchronization

/// A ``SyncEngine`` running continuously: rounds woken by local saves (the persistent
/// history, polled), by the server's notifications for the space (`LISTEN`, on a connection
/// of its own that is made again when it drops) and every half minute.
final class ContinuousSync: Sendable {
    private let loop: Mutex<Task<Void, Never>?> = Mutex(nil)
    private let wakes: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation)
    private let connections = ConnectionCount()

    init(runner: SyncRunner, container: PersistentContainer, configuration: SyncConfiguration,
         onRound: @escaping @Sendable (Result<SyncReport, PersistError>) -> Void) {
        wakes = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let continuation = wakes.continuation
        let stream = wakes.stream
        let counter = connections
        loop.withLock {
            $0 = Task {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await Self.watchHistory(container: container, configuration: configuration, wake: continuation) }
                    group.addTask { await Self.listen(runner: runner, configuration: configuration, wake: continuation, connections: counter) }
                    group.addTask {
                        await Self.runRounds(runner: runner, configuration: configuration, wakes: stream, onRound: onRound)
                    }
                    await group.next()
                    group.cancelAll()
                }
            }
        }
        continuation.yield()
    }

    var listenerConnections: Int { connections.value.load(ordering: .relaxed) }

    func cancel() {
        loop.withLock { $0?.cancel() }
        wakes.continuation.finish()
    }

    func stop() async {
        let task = loop.withLock { $0 }
        task?.cancel()
        wakes.continuation.finish()
        await task?.value
    }

    /// A round per wake; a failed one is tried again after a growing pause.
    private static func runRounds(runner: SyncRunner, configuration: SyncConfiguration, wakes: AsyncStream<Void>,
                                  onRound: @Sendable (Result<SyncReport, PersistError>) -> Void) async {
        var iterator = wakes.makeAsyncIterator()
        while !Task.isCancelled, await iterator.next() != nil {
            var pause = configuration.retryInterval
            while !Task.isCancelled {
                do {
                    onRound(.success(try await runner.round()))
                    break
                } catch {
                    onRound(.failure(error as? PersistError ?? SyncFailure.error("\(error)")))
                    try? await Task.sleep(nanoseconds: UInt64(max(0.01, pause) * 1e9))
                    pause = min(pause * 2, 60)
                }
            }
        }
        await runner.disconnect()
    }

    /// Wakes a round when a transaction not of the engine's own appears in the history, and
    /// every half minute.
    private static func watchHistory(container: PersistentContainer, configuration: SyncConfiguration,
                                     wake: AsyncStream<Void>.Continuation) async {
        var seen = try? container.currentHistoryToken()
        var lastWake = Date()
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: UInt64(max(0.005, configuration.pollInterval) * 1e9))
            if let token = try? container.currentHistoryToken(), token != seen {
                let transactions = (try? container.history(after: seen)) ?? []
                seen = token
                if transactions.contains(where: { $0.author != configuration.transactionAuthor }) {
                    wake.yield()
                    lastWake = Date()
                    continue
                }
            }
            if Date().timeIntervalSince(lastWake) > 30 {
                wake.yield()
                lastWake = Date()
            }
        }
    }

    /// Listens for the space's notifications on a connection of its own; reconnects (and
    /// wakes a round, for what it may have missed) when the connection drops.
    private static func listen(runner: SyncRunner, configuration: SyncConfiguration, wake: AsyncStream<Void>.Continuation,
                               connections: ConnectionCount) async {
        var pause = configuration.retryInterval
        while !Task.isCancelled {
            do {
                let session = try await ServerSession.connect(to: runner.server)
                defer { session.close() }
                let channel = try await session.channel(of: runner.space)
                connections.value.add(1, ordering: .relaxed)
                pause = configuration.retryInterval
                wake.yield()
                try await session.listen(on: channel) { wake.yield() }
            } catch {
                if Task.isCancelled { return }
            }
            try? await Task.sleep(nanoseconds: UInt64(max(0.01, pause) * 1e9))
            pause = min(pause * 2, 30)
        }
    }
}

/// How many times a listener connected.
final class ConnectionCount: Sendable {
    let value = Atomic<Int>(0)
}
