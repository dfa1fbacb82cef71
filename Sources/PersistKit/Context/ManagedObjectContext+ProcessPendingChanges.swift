extension ManagedObjectContext {
    /// This context's identity in the store's change log.
    var contextIdentity: Int { Int(bitPattern: UInt(bitPattern: ObjectIdentifier(self))) }

    /// Merges what other contexts (and processes) saved, then hands observers one notice of
    /// everything that changed since the last one. Save and fetch run it first.
    ///
    /// Called from inside an observer it does nothing: changes made there are delivered by the
    /// next call, never as a nested or torn notice.
    ///
    /// ```swift
    /// let token = context.addObserver { changes in print(changes.updated.count, "updated") }
    /// task.isComplete = true
    /// context.processPendingChanges()   // the observer hears of the change now, not at the next save
    /// ```
    public func processPendingChanges() {
        guard !observers.isDelivering else { return }
        undoManager?.contextProcessedPendingChanges()
        if automaticallyMergesChanges { mergeChangesFromStore() }
        // Comparing lists and resolving partners read objects, which may queue more of both.
        while !pendingNotice.changedBackLists.isEmpty || !pendingNotice.partners.isEmpty {
            if !pendingNotice.changedBackLists.isEmpty { noteChangedBackLists() }
            if !pendingNotice.partners.isEmpty { queueChangedPartners() }
        }
        guard !pendingNotice.isEmpty else { return }
        guard !observers.isEmpty else {
            // Nobody to tell: forget the queue without building a notice.
            pendingNotice.discard()
            return
        }
        let notice = pendingNotice.take()
        observers.setDelivering(true)
        defer { observers.setDelivering(false) }
        for id in observers.ids {
            observers.observer(id)?(notice)
        }
    }
}
