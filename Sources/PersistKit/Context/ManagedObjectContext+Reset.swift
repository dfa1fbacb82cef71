extension ManagedObjectContext {
    /// Forgets every object and change: objects handed out before are detached (they keep
    /// their values; saving them is impossible). Observers are told to refetch. The
    /// ``undoManager`` forgets every action.
    ///
    /// ```swift
    /// context.reset()
    /// let tasks = try context.fetch(FetchRequest<TaskItem>())   // new instances, read from the store
    /// ```
    public func reset() {
        undoManager?.removeAllActions()
        mergeCursor.noteReset()
        for objects in registry.allHeld {
            for object in objects.byKey.values { object.managedObjectContext = nil }
        }
        for object in registry.insertedOrder { object.managedObjectContext = nil }
        registry.forgetSaved()
        registry.forgetInserts()
        graph.advance()
        changeTracker.forgetChanges()
        changeTracker.forgetDeletions()
        pendingNotice.discard()
        pendingNotice.invalidateAll()
        mergeCursor.skip(through: store.currentSequence)
        processPendingChanges()
        if family.parent != nil { takeParentStateAgain() }
    }
}
