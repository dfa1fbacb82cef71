import Foundation

/// `PRAGMA synchronous` settings.
///
/// ```swift
/// let store = StoreDescription.sqlite(url, synchronous: .normal)   // faster commits, still crash-safe
/// ```
public enum SynchronousMode: String, Sendable {
    /// Sync at every commit and checkpoint: durable across power loss.
    case full = "FULL"
    /// In WAL mode, sync at checkpoints only: durable across application crashes.
    case normal = "NORMAL"
    /// Never sync.
    case off = "OFF"
}
