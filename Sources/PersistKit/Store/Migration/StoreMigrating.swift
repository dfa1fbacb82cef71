/// Brings a store written by an older version of the model up to the model.
///
/// Implemented above the store (the staged migrator in `Migration/`), called by the store's
/// opener: ``prepare(from:to:path:)`` before anything is written, ``migrate(_:from:to:store:)``
/// inside the migration's one `BEGIN IMMEDIATE` transaction, with foreign-key enforcement off
/// (SQLite's procedure for changing tables: on, dropping a table would run its delete actions).
/// The opener records the new model in the metadata and checks the tables and every reference
/// before it commits.
protocol StoreMigrating: AnyObject {
    /// Throws a clear error when the store cannot be migrated to `model` (an unknown model, no
    /// path from its version, a change no stage can make); writes nothing.
    func prepare(from stored: StoredModel, to model: ManagedObjectModel, path: String) throws

    /// Migrates the store, within the open transaction on `connection`.
    func migrate(_ connection: SQLiteConnection, from stored: StoredModel, to model: ManagedObjectModel,
                 store: StoreIdentity) throws
}
