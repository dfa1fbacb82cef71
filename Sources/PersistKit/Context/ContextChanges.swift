/// One change notice from a context: what changed since the previous notice.
///
/// ``ManagedObjectContext/processPendingChanges()`` (run also by save and fetch) hands it to
/// every observer.
public struct ContextChanges {
    /// Objects inserted (or, after a rollback, brought back).
    public internal(set) var inserted: [ManagedObject] = []
    /// Objects whose values changed, with the names of the attributes that changed.
    public internal(set) var updated: [(object: ManagedObject, keys: ChangedKeys)] = []
    /// Objects deleted (or, after a rollback, discarded inserts).
    public internal(set) var deleted: [ManagedObject] = []
    /// The context was reset, or another process changed the store in a way its persistent
    /// history cannot tell (purged before it was read; written by an older PersistKit or
    /// another program): anything may have changed, and observers should refetch.
    public internal(set) var invalidatedAll = false

    /// Whether the notice reports nothing.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && !invalidatedAll }
}

/// Keeps an observation alive: call ``cancel()`` or let the token go to stop it.
public final class ObservationToken {
    private var cancellation: (() -> Void)?

    init(_ cancellation: @escaping () -> Void) {
        self.cancellation = cancellation
    }

    /// Stops the observation. Calling it again does nothing.
    public func cancel() {
        cancellation?()
        cancellation = nil
    }

    deinit { cancellation?() }
}

/// How a context resolves a conflict: an object it saves was changed or deleted by another
/// context or process since it read it, or an object it inserts has the unique values of
/// another.
public enum MergePolicy: Sendable {
    /// Throw a `.conflict` error listing the objects; nothing is written (the default). An
    /// insert breaking a uniqueness constraint throws `.constraintViolation`.
    case error
    /// Write this context's changed attributes over the store's values. An insert whose
    /// unique values another object has updates that object instead (an upsert):
    ///
    /// ```swift
    /// context.mergePolicy = .objectTrump
    /// let tag = Tag(context: context)
    /// tag.label = "urgent"          // a stored Tag "urgent" exists
    /// try context.save()            // one row: the stored one, with the insert's values
    /// ```
    case objectTrump
}
