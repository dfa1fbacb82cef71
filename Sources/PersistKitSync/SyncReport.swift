import Foundation

/// What one sync round did: the changes it sent and received, the conflicts it resolved, and
/// how long it took.
///
/// ```swift
/// let report = try await engine.sync()
/// print("sent \(report.sent), received \(report.received) in \(report.duration) s")
/// ```
public struct SyncReport: Sendable, Hashable, CustomStringConvertible {
    /// Objects and links whose changes this round pushed.
    public var sent = 0
    /// Objects and links whose changes this round pulled and applied.
    public var received = 0
    /// Conflicts settled: pushed keys older than the server's, updates a deletion overrode,
    /// objects merged for a uniqueness constraint, pulled keys older than this store's.
    public var conflictsResolved = 0
    /// How long the round took, in seconds.
    public var duration: TimeInterval = 0
    /// The space's server sequence this store has pulled up to.
    public var serverSequence: Int64 = 0

    /// A report of nothing.
    public init() {}

    /// `sent 3, received 5, 1 conflict resolved (0.042 s)`.
    public var description: String {
        "sent \(sent), received \(received)"
            + (conflictsResolved > 0 ? ", \(conflictsResolved) conflict\(conflictsResolved == 1 ? "" : "s") resolved" : "")
            + " (\(String(format: "%.3f", duration)) s)"
    }
}

/// Where a sync round is, as ``SyncEngine/progress`` reports it.
public struct SyncProgress: Sendable, Hashable {
    /// The round's phases.
    public enum Phase: String, Sendable, Hashable {
        /// Reading the local changes since the last round.
        case capturing
        /// Sending them to the server.
        case pushing
        /// Receiving and applying the server's changes.
        case pulling
        /// The round is over.
        case finished
    }

    /// The phase.
    public var phase: Phase
    /// Objects and links sent so far this round.
    public var sent: Int
    /// Objects and links received so far this round.
    public var received: Int
}
