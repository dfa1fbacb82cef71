import Foundation

/// Where and how a container keeps its objects.
///
/// ```swift
/// let container = try PersistentContainer(model: model, store: .sqlite(url))
/// let scratch = try PersistentContainer(model: model, store: .inMemory)
/// ```
public struct StoreDescription: Sendable {
    enum Kind: Sendable {
        case sqlite(URL)
        case inMemory
    }

    let kind: Kind
    /// `PRAGMA synchronous` for the store's connection (`.full` by default).
    public var synchronous: SynchronousMode
    /// How long a save waits for another process's write lock before failing.
    public var busyTimeout: TimeInterval

    /// An SQLite database file at `url` (created if missing; its directory must exist), in WAL
    /// mode.
    public static func sqlite(_ url: URL, synchronous: SynchronousMode = .full, busyTimeout: TimeInterval = 5) -> StoreDescription {
        StoreDescription(kind: .sqlite(url), synchronous: synchronous, busyTimeout: busyTimeout)
    }

    /// A private in-memory SQLite database: same semantics as a file, gone with the container.
    public static var inMemory: StoreDescription {
        StoreDescription(kind: .inMemory, synchronous: .off, busyTimeout: 5)
    }

    /// The file URL, for `.sqlite` stores.
    public var url: URL? {
        if case .sqlite(let url) = kind { return url }
        return nil
    }
}
