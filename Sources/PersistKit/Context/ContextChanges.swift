/// One change notice from a context: what changed since the previous notice.
///
/// ``ManagedObjectContext/processPendingChanges()`` (run also by save and fetch) hands it to
/// every observer.
///
/// ```swift
/// let token = context.addObserver { changes in
///     if changes.invalidatedAll { reloadEverything(); return }
///     for (object, keys) in changes.updated where keys.contains("name") { redraw(object) }
///     print(changes.inserted.count, "new,", changes.deleted.count, "gone")
/// }
/// ```
public struct ContextChanges {
    /// Objects inserted (or, after a rollback, brought back).
    public internal(set) var inserted: [ManagedObject] = []
    /// Objects whose values changed, with the names of the attributes that changed.
    public internal(set) var updated: [(object: ManagedObject, keys: ChangedKeys)] = []
    /// Objects deleted (or, after a rollback, discarded inserts).
    public internal(set) var deleted: [ManagedObject] = []
    /// The context was reset, or another process changed the store: anything may have
    /// changed, and observers should refetch.
    public internal(set) var invalidatedAll = false

    /// Whether the notice reports nothing.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && !invalidatedAll }
}

/// Keeps an observation alive: call ``cancel()`` or let the token go to stop it.
///
/// ```swift
/// var token: ObservationToken? = results.observe { change in apply(change) }
/// token?.cancel()   // or: token = nil
/// ```
public final class ObservationToken {
    private var cancellation: (() -> Void)?

    init(_ cancellation: @escaping () -> Void) {
        self.cancellation = cancellation
    }

    /// Stops the observation. Calling it again does nothing.
    ///
    /// ```swift
    /// token.cancel()
    /// ```
    public func cancel() {
        cancellation?()
        cancellation = nil
    }

    deinit { cancellation?() }
}

/// How a context resolves a conflict: an object it saves was changed or deleted by another
/// context or process since it read it.
///
/// ```swift
/// let context = container.newContext()
/// context.mergePolicy = .objectTrump   // this context's changes win; the default is .error
/// ```
public enum MergePolicy: Sendable {
    /// Throw a `.conflict` error listing the objects; nothing is written (the default).
    case error
    /// Write this context's changed attributes over the store's values.
    case objectTrump
}
