/// Work off the main actor, and the view context's automatic merging.
extension PersistentContainer {
    /// Runs `body` with a new context on a background thread (the global concurrent
    /// executor, never the caller's actor), and returns its result.
    ///
    /// The context lives only for the call and only on that thread: `body` is `@Sendable`
    /// and the result `Sendable`, so no object or context escapes, only values and
    /// ``ObjectID``s. Its saves reach the container's other contexts at their next
    /// ``ManagedObjectContext/processPendingChanges()`` (the ``viewContext`` is told at once).
    ///
    /// ```swift
    /// let ids = try await container.performBackgroundTask { context in
    ///     for name in names {
    ///         let task = TaskItem(context: context)
    ///         task.name = name
    ///     }
    ///     try context.save()
    ///     return context.registeredObjects.map(\.objectID)
    /// }
    /// ```
    @concurrent
    public func performBackgroundTask<T: Sendable>(_ body: @Sendable (ManagedObjectContext) throws -> T) async rethrows -> T {
        let context = newContext()
        return try context.performAndWait { try body(context) }
    }

    /// After a save of another context: lets the view context merge it on the main actor
    /// (one pending merge at a time, however many saves come in meanwhile).
    func viewContextShouldMerge(_ change: StoreChange) {
        let view = viewContextIdentity.load(ordering: .acquiring)
        guard view != 0, change.origin != view,
              viewMergeScheduled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        Task { @MainActor [weak self] in
            guard let self else { return }
            viewMergeScheduled.store(false, ordering: .releasing)
            guard let context = viewContextIfMade, context.automaticallyMergesChanges else { return }
            context.processPendingChanges()
        }
    }
}
