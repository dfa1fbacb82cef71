extension ManagedObjectContext {
    /// Saves like ``save()``, running `body` inside the save's transaction after its rows are
    /// written (and before its history record): what `body` writes commits or rolls back with
    /// the save, and a `body` that throws fails the save, leaving store and context as they were.
    /// `body` does not run when there is nothing to save. A child context's save writes no
    /// transaction: it throws `.misuse`.
    package func save(alongside body: @escaping (StoreTransaction) throws -> Void) throws {
        if family.parent != nil {
            throw PersistError(.misuse, "A child context saves into its parent, not the store: save(alongside:) needs a context over the store")
        }
        store.setSaveParticipant(body, for: contextIdentity)
        defer { store.setSaveParticipant(nil, for: contextIdentity) }
        try save()
    }
}
