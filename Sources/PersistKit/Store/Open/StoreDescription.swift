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
    /// Open the store for reading only: fetches work, a save throws `.cannotOpenStore`.
    ///
    /// A store this process cannot write (the file, or its directory, is not writable) opens
    /// read-only without asking; a store that does not exist yet cannot be opened read-only.
    /// A read-only store sees what other processes save, through the `-shm` file SQLite keeps
    /// next to it; in a directory this process cannot write, where that file cannot be made,
    /// the store is read as it was when opened.
    public var isReadOnly: Bool
    /// How much persistent history the store keeps (``HistoryRetention/default``: seven days,
    /// at most 10,000 transactions). Applied by every save.
    public var historyRetention: HistoryRetention = .default
    /// How many connections may read the store at once (5 by default, as GRDB's
    /// `DatabasePool`): fetches beyond that wait for one to finish. An in-memory store has
    /// one connection whatever this says.
    public var maximumReaderCount = 5

    /// An SQLite database file at `url` (created if missing; its directory must exist), in WAL
    /// mode. A symbolic link is followed: the store, and its `-wal` and `-shm` files, are at
    /// the link's target.
    ///
    /// ```swift
    /// let archive = try PersistentContainer(model: model, store: .sqlite(url, readOnly: true))
    /// ```
    public static func sqlite(_ url: URL, synchronous: SynchronousMode = .full, busyTimeout: TimeInterval = 5,
                              readOnly: Bool = false) -> StoreDescription {
        StoreDescription(kind: .sqlite(url), synchronous: synchronous, busyTimeout: busyTimeout, isReadOnly: readOnly)
    }

    /// A private in-memory SQLite database: same semantics as a file, gone with the container.
    ///
    /// ```swift
    /// let container = try PersistentContainer(model: model, store: .inMemory)   // for tests and previews
    /// ```
    public static var inMemory: StoreDescription {
        StoreDescription(kind: .inMemory, synchronous: .off, busyTimeout: 5, isReadOnly: false)
    }

    /// The file URL, for `.sqlite` stores.
    public var url: URL? {
        if case .sqlite(let url) = kind { return url }
        return nil
    }
}
