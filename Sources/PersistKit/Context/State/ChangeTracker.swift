/// The saved objects a context changed or deleted and has not saved: what its next save writes
/// besides the inserts (which ``ObjectRegistry`` keeps), and what a rollback undoes.
///
/// Invariants:
/// - `changed` holds saved objects (never an unsaved insert), each with the snapshot of the
///   values it had when read (`committedStorage`), taken before its first change; an object
///   holds a snapshot only while it is in `changed`. An object another context or process
///   deleted stays in `changed` while it has changes here, so that the next save fails with a
///   conflict instead of losing them.
/// - `deleted` holds the saved objects deleted in this context and not yet saved, each with its
///   `deletedFlag` on; an object deleted elsewhere is never in it.
///
/// The tracker writes an object's snapshot when it starts tracking it; putting values back
/// (a rollback, a refresh) is the context's work, which then tells the tracker to forget it.
struct ChangeTracker {
    /// Saved objects changed since read, by address.
    private(set) var changed: [ObjectIdentifier: ManagedObject] = [:]
    /// Saved objects deleted in this context, not yet saved, by address.
    private(set) var deleted: [ObjectIdentifier: ManagedObject] = [:]

    /// Whether any saved object is changed or deleted.
    var isEmpty: Bool { changed.isEmpty && deleted.isEmpty }

    // MARK: Changed objects

    /// Before one of an object's values changes: a saved object's first change since it was
    /// read takes the snapshot of its values and tracks it (an unsaved insert has no snapshot).
    @inline(__always)
    mutating func noteWillChange(_ object: ManagedObject) {
        guard !object.insertedFlag && object.committedStorage == nil else { return }
        object.committedStorage = object.storage
        changed[ObjectIdentifier(object)] = object
    }

    /// Tracks a saved object as changed, with a snapshot of its values if it has none yet, so
    /// that the next save handles it even when only its relationships changed.
    mutating func markChanged(_ object: ManagedObject) {
        guard !object.insertedFlag else { return }
        if object.committedStorage == nil {
            object.committedStorage = object.storage
        }
        changed[ObjectIdentifier(object)] = object
    }

    /// Keeps tracking an object that already has its snapshot (deleted elsewhere with changes
    /// here).
    mutating func keepChanged(_ object: ManagedObject) {
        changed[ObjectIdentifier(object)] = object
    }

    /// Stops tracking an object as changed (its values were saved, put back or refreshed).
    @inline(__always)
    mutating func forgetChange(_ object: ManagedObject) {
        // No hashing when nothing is tracked: a merge may forget 100,000 objects.
        guard !changed.isEmpty else { return }
        changed[ObjectIdentifier(object)] = nil
    }

    /// Stops tracking every changed object.
    mutating func forgetChanges() {
        changed.removeAll()
    }

    // MARK: Deleted objects

    /// Notes a saved object deleted in this context.
    mutating func noteDeleted(_ object: ManagedObject) {
        deleted[ObjectIdentifier(object)] = object
    }

    /// Whether `object` is deleted in this context and not yet saved.
    func isPendingDeletion(_ object: ManagedObject) -> Bool {
        deleted[ObjectIdentifier(object)] != nil
    }

    /// Forgets a deletion (another context's save deleted the row first).
    @inline(__always)
    mutating func forgetDeletion(_ object: ManagedObject) {
        guard !deleted.isEmpty else { return }
        deleted[ObjectIdentifier(object)] = nil
    }

    /// Forgets every deletion (saved, or rolled back).
    mutating func forgetDeletions() {
        deleted.removeAll()
    }
}
