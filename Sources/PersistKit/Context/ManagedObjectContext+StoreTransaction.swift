extension ManagedObjectContext {
    /// Saves like ``save()``, running `body` inside the save's transaction after its rows are
    /// written (and before its history record): what `body` writes commits or rolls back with
    /// the save, and a `body` that throws fails the save, leaving store and context as they were.
    /// `body` does not run when there is nothing to save.
    package func save(alongside body: @escaping (StoreTransaction) throws -> Void) throws {
        store.setSaveParticipant(body, for: contextIdentity)
        defer { store.setSaveParticipant(nil, for: contextIdentity) }
        try save()
    }
}
