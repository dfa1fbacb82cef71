/// Objects that outlive their context keep working.
///
/// A context holds its saved objects without retaining them, so a function may return objects
/// it fetched in a context of its own, which is freed on return. Those objects are not left
/// without a context (every relationship not yet loaded would read as empty: a silent wrong
/// answer): the dying context hands them to a *successor*, a new context of the same store,
/// which they keep alive (`ContextSuccessors`) and through which they read their relationships
/// and, after a merge or a refresh, their values. The successor goes when the last of them goes.
///
/// - The successor holds what the store holds: a change the dead context had not saved is
///   discarded with it (the object's values go back to its saved ones; a deletion not saved is
///   undone), as with a rollback; its unsaved inserts have no row and stay in no context.
/// - An object changed after that is tracked by the successor, which saves it like any other
///   context (`object.managedObjectContext?.save()`), and keeps it (and itself) until it is
///   saved or rolled back.
/// - It takes the dead context's settings (merge policy, automatic merging, observability,
///   name, author, logger), and is confined where its objects are, as the dead context was.
extension ManagedObjectContext {
    /// Hands the saved objects still alive to a successor (from `deinit`). Every object in
    /// the identity map is alive (an object's `deinit` takes it out), and each is retained here
    /// before anything else is released: an object freed later no longer finds this context.
    func handOverSurvivors() {
        var survivors: [ManagedObject] = []
        for objects in registry.allHeld where !objects.byKey.isEmpty {
            survivors.append(contentsOf: objects.byKey.values)
        }
        guard !survivors.isEmpty else { return }
        let successor = ManagedObjectContext(store: store)
        successor.mergePolicy = mergePolicy
        successor.automaticallyMergesChanges = automaticallyMergesChanges
        successor.name = name
        successor.transactionAuthor = transactionAuthor
        successor.logger = logger
        // Before it holds any object: the objects keep the read-tracking flag they have.
        successor.isObservable = isObservable
        for object in survivors {
            if let committed = object.committedStorage {
                object.replaceStorage(with: committed)
                object.committedStorage = nil
            }
            if object.deletedFlag && changeTracker.isPendingDeletion(object) { object.deletedFlag = false }
            object.encodingProblems = nil
            // Loaded lists and resolved to-ones name objects of this context: read again.
            object.related = nil
            object.managedObjectContext = successor
            successor.entityObjects(object.entity).byKey.insert(object, for: object.objectID.key)
        }
        ContextSuccessors.keep(successor, for: survivors)
    }
}
