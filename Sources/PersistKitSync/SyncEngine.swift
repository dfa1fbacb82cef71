import Foundation
import PersistKit
import Synchronization

/// Keeps a store in sync with a space on a PostgreSQL server: pushes the store's local
/// changes (read from its persistent history), pulls other stores' changes, and settles
/// conflicts so that every store of the space converges to the same objects.
///
/// ```swift
/// let server = try SyncServer(url: "postgres://alice@db.example.com/tasks")
/// let engine = SyncEngine(container: container, server: server, space: "alice")
/// let report = try await engine.sync()          // one round
/// engine.start()                                // or keep syncing, woken by changes
/// ```
///
/// The store works offline as ever: saves are local, and a round that cannot reach the
/// server leaves every change queued for the next. Pulled changes are saved by a context of
/// the container (author ``SyncConfiguration/transactionAuthor``), so contexts, controllers
/// and other processes merge them like any save. See <doc:SyncingStores>.
public final class SyncEngine: Sendable {
    /// The container whose store syncs.
    public let container: PersistentContainer
    /// The server.
    public let server: SyncServer
    /// The space the store syncs (a tenant: a person's list, a team's).
    public let space: String
    /// How it syncs.
    public let configuration: SyncConfiguration

    private let runner: SyncRunner
    private let continuous = Mutex<ContinuousSync?>(nil)
    private let progressStream: (stream: AsyncStream<SyncProgress>, continuation: AsyncStream<SyncProgress>.Continuation)

    /// An engine for `container`'s store and `space` on `server`. Nothing connects until the
    /// first round.
    public init(container: PersistentContainer, server: SyncServer, space: String, configuration: SyncConfiguration = SyncConfiguration()) {
        self.container = container
        self.server = server
        self.space = space
        self.configuration = configuration
        progressStream = AsyncStream.makeStream(of: SyncProgress.self, bufferingPolicy: .bufferingNewest(64))
        runner = SyncRunner(container: container, server: server, space: space, configuration: configuration,
                            progress: progressStream.continuation)
    }

    deinit {
        continuous.withLock { $0?.cancel() }
        progressStream.continuation.finish()
    }

    /// Where rounds are, as they go: each phase, and the objects sent and received so far.
    ///
    /// ```swift
    /// Task { for await step in engine.progress { print(step.phase, step.sent, step.received) } }
    /// ```
    public var progress: AsyncStream<SyncProgress> { progressStream.stream }

    /// Runs one round: pushes the local changes since the last round, then pulls and applies
    /// the space's changes since then. Rounds of one store never overlap (also across
    /// processes: a lock file beside the store).
    ///
    /// - Returns: what the round sent, received and settled.
    /// - Throws: `PersistError` `.sync` (server unreachable, not a member of the
    ///   space, model versions that do not fit: the changes stay queued), or the store's own
    ///   errors. A failed round leaves the store as it was, or with what it pulled so far.
    @discardableResult
    public func sync() async throws -> SyncReport {
        try await runner.round()
    }

    /// Keeps syncing until ``stop()``: a round now, then one whenever this store saves (its
    /// own process's saves and other processes'), another store pushes to the space (the
    /// server notifies), or half a minute passes; a failed round is tried again after
    /// ``SyncConfiguration/retryInterval``, doubling up to a minute.
    ///
    /// - Parameter onRound: called after each round with its report or its error.
    public func start(onRound: @escaping @Sendable (Result<SyncReport, PersistError>) -> Void = { _ in }) {
        continuous.withLock { current in
            guard current == nil else { return }
            current = ContinuousSync(runner: runner, container: container, configuration: configuration, onRound: onRound)
        }
    }

    /// Stops continuous syncing (a round under way finishes first).
    public func stop() async {
        let running = continuous.withLock { current -> ContinuousSync? in
            defer { current = nil }
            return current
        }
        await running?.stop()
    }

    /// Whether continuous syncing is on.
    public var isRunning: Bool { continuous.withLock { $0 != nil } }

    /// How many times continuous syncing (re)connected its `LISTEN` connection (tests watch it
    /// reconnect).
    var listenerConnections: Int { continuous.withLock { $0?.listenerConnections ?? 0 } }

    /// Ends the store's hold on its persistent history (see
    /// `PersistentContainer.retainHistory(after:for:)`), for a store that will not
    /// sync again.
    public func releaseHistory() throws {
        try container.releaseHistory(for: configuration.transactionAuthor)
    }
}

/// Runs rounds one at a time, on one server connection kept between rounds.
actor SyncRunner {
    let container: PersistentContainer
    let server: SyncServer
    let space: String
    let configuration: SyncConfiguration
    let schema: SyncSchema
    private let progress: AsyncStream<SyncProgress>.Continuation
    private var session: ServerSession?

    init(container: PersistentContainer, server: SyncServer, space: String, configuration: SyncConfiguration,
         progress: AsyncStream<SyncProgress>.Continuation) {
        self.container = container
        self.server = server
        self.space = space
        self.configuration = configuration
        self.progress = progress
        schema = SyncSchema(model: container.model, excluding: configuration.excludedEntities,
                            ignoringCase: configuration.uniqueAttributesIgnoringCase)
    }

    func round() async throws -> SyncReport {
        if let stored = schema.externallyStoredAttribute {
            throw SyncFailure.error("\(stored.entity).\(stored.attribute) keeps large values in files beside the store (.externalStorage), "
                                    + "which PersistKitSync does not sync: exclude \(stored.entity) (SyncConfiguration.excludedEntities)",
                                    server: server.displayName, space: space)
        }
        if let entity = schema.inheritingEntity {
            throw SyncFailure.error("\(entity) is in an entity inheritance tree, which PersistKitSync does not sync yet: "
                                    + "exclude the tree's entities (SyncConfiguration.excludedEntities)",
                                    server: server.displayName, space: space)
        }
        let lock = try await SyncLock.acquire(for: container.storeDescription.url)
        defer { lock.release() }
        do {
            let session = try await connectedSession()
            let round = SyncRound(container: container, server: server, space: space, configuration: configuration, schema: schema,
                                  progress: { [progress] in progress.yield($0) })
            return try await round.run(session)
        } catch {
            if SyncFailure.isConnectionLoss(error) || error is PullApplier.LocalChangesArrived {
                session?.close()
                session = nil
            }
            throw SyncFailure.wrap(error, doing: "syncing the space '\(space)'", server: server.displayName, space: space)
        }
    }

    private func connectedSession() async throws -> ServerSession {
        if let session, session.isOpen { return session }
        let session = try await ServerSession.connect(to: server)
        do {
            try await session.ensureSchema()
        } catch {
            session.close()
            throw error
        }
        self.session = session
        return session
    }

    /// Closes the connection (the next round opens another).
    func disconnect() {
        session?.close()
        session = nil
    }
}
