extension ManagedObjectContext {
    /// Forgets every object and change: objects handed out before are detached (they keep
    /// their values; saving them is impossible). Observers are told to refetch.
    ///
    /// ```swift
    /// context.reset()
    /// let tasks = try context.fetch(FetchRequest<TaskItem>())   // new instances, read from the store
    /// ```
    public func reset() {
        resetCount &+= 1
        for objects in registered.values {
            for object in objects.byKey.values { object.managedObjectContext = nil }
        }
        for object in insertedOrder { object.managedObjectContext = nil }
        registered.removeAll()
        insertedOrder.removeAll()
        insertedCount = 0
        insertedByTemporaryKey.removeAll()
        graphGeneration &+= 1
        changed.removeAll()
        deleted.removeAll()
        pendingNotice.discard()
        pendingNotice.invalidatedAll = true
        lastMergedSequence = store.currentSequence
        processPendingChanges()
    }
}
