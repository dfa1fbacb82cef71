import Foundation

/// How a ``SyncEngine`` syncs: what it leaves out, how deletes meet updates, its clock, and
/// how often it looks for changes when running continuously.
///
/// ```swift
/// var configuration = SyncConfiguration()
/// configuration.excludedEntities = ["Draft"]          // stays on this store only
/// let engine = SyncEngine(container: container, server: server, space: "team", configuration: configuration)
/// ```
public struct SyncConfiguration: Sendable {
    /// How a deletion meets a concurrent update of the same object. Every store of a space
    /// must use the same policy: the space records the one its first store used, and an engine
    /// with another is refused.
    public enum DeletePolicy: String, Sendable, Hashable {
        /// A deleted object stays deleted, whatever updates other stores made to it (the default,
        /// as CloudKit's): nothing comes back that someone removed.
        case deleteWins
        /// The newer change wins: an update made after the deletion (by the hybrid clocks)
        /// brings the object back with its newest values and links.
        case lastWriterWins
    }

    /// Entities that do not sync: their objects stay in this store (a store's own settings,
    /// caches). Relationships to them are not synced either.
    public var excludedEntities: Set<String> = []
    /// Unique attributes whose values are compared without regard to case when stores'
    /// objects are matched (entity name to attribute names): with `["Tag": ["name"]]`, tags
    /// "Urgent" and "urgent" made on two stores merge into one, as an application that looks
    /// its tags up case-insensitively expects (`==[c]`, Unicode case folding). The store itself
    /// compares unique values byte for byte; every store of a space must use the same setting.
    public var uniqueAttributesIgnoringCase: [String: Set<String>] = [:]
    /// How deletes meet updates (``DeletePolicy/deleteWins`` by default).
    public var deletePolicy: DeletePolicy = .deleteWins
    /// The author recorded in the persistent history for the saves that apply pulled changes:
    /// the engine never pushes back transactions of this author.
    public var transactionAuthor = "PersistKitSync"
    /// The wall clock the hybrid clock reads: each local change is stamped with its save's
    /// time on this clock (tests set one that is off, to see the stores converge anyway).
    public var clock: @Sendable () -> Date = { Date() }
    /// How often a continuous engine (``SyncEngine/start(onRound:)``) looks for local saves of other
    /// processes, in seconds; its own process's saves and the server's notifications wake it at once.
    public var pollInterval: TimeInterval = 0.05
    /// How long a continuous engine waits after a failed round before it tries again, at
    /// first (it doubles up to a minute), in seconds.
    public var retryInterval: TimeInterval = 0.5
    /// The most objects one push or one pulled page carries.
    public var batchSize = 5_000

    /// The defaults.
    public init() {}
}
