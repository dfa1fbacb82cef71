/// Running work on a context where it lives, as Core Data's `perform` and `performAndWait`.
extension ManagedObjectContext {
    /// Runs `body` in the context's isolation domain, then hands the context's observers the
    /// changes it made (``processPendingChanges()``), and returns what `body` returns.
    ///
    /// A context is not `Sendable`: the compiler keeps it in the actor, task or thread that
    /// made it, so `perform` runs `body` right there (on the caller's actor), never on another
    /// thread. It is the unit of work Core Data users know, and ends with observers told.
    ///
    /// ```swift
    /// let name = try await context.perform {
    ///     let task = try context.existingObject(with: id) as! TaskItem
    ///     task.isComplete = true
    ///     try context.save()
    ///     return task.name
    /// }
    /// ```
    nonisolated(nonsending)
    public func perform<T>(_ body: () throws -> T) async rethrows -> T {
        let result = try body()
        processPendingChanges()
        return result
    }

    /// Runs `body` at once in the context's isolation domain, then hands the context's
    /// observers the changes it made, and returns what `body` returns.
    ///
    /// ```swift
    /// let count = try context.performAndWait { try context.count(for: FetchRequest<TaskItem>()) }
    /// ```
    public func performAndWait<T>(_ body: () throws -> T) rethrows -> T {
        let result = try body()
        processPendingChanges()
        return result
    }

    /// Catches up with every save made elsewhere and reads every object this context holds
    /// again: unchanged objects take the stored values, objects with changes here keep them
    /// (the next save merges them key by key), and objects the store no longer has report
    /// ``ManagedObject/isDeleted``. Observers hear of every difference.
    ///
    /// Works whether or not ``automaticallyMergesChanges`` is on: with it off, this is how
    /// the context learns of other contexts' saves.
    public func refreshAllObjects() {
        mergeChangesFromStore()
        refreshAllRegisteredObjects()
        processPendingChanges()
    }
}
