/// What a save's write tells the context besides success: the keys its inserts got, and the
/// rows it did not simply overwrite, read back after the writes.
struct StoreWriteResult {
    /// How the store settled a row that another context or process had changed.
    enum Outcome {
        /// Both saves' keys are in the row now (or, keeping the stored values, those of the
        /// keys in conflict): the object takes the row.
        case combined
        /// Nothing of the object's changes was written (merge policy `.rollback`): the object
        /// drops its changes and takes the row.
        case discarded
        /// The object's deletion was not done (`.storeTrump` or `.rollback`): the object stays,
        /// with the row's values.
        case keptFromDeletion
    }

    /// A row as it stands at the end of the save's transaction.
    struct Row {
        let entity: EntityDescription
        let key: Int64
        let version: Int64
        let storage: ContiguousArray<SQLValue>
        let outcome: Outcome
    }

    /// The primary key of each inserted row, in the plan's order: the new row's, or for an
    /// insert that updated a stored row instead (an upsert), that row's.
    var keys: [Int64] = []
    /// The plan positions of the upserted inserts, each with its row's version after the save.
    var upserted: [Int: Int64] = [:]
    /// Rows whose one-to-one foreign key the save cleared, by entity name: their partner was
    /// an upserted row, which took another partner from the insert.
    var unlinked: [String: [Int64]] = [:]
    /// Rows whose to-one referred to a row the save deleted, cleared by SQLite: by entity name.
    var clearedReferences: [String: [Int64]] = [:]
    /// The rows settled against another save's changes.
    var settled: [Row] = []
    /// Rows the save's statements inserted, updated or deleted (history and metadata included).
    var rowsWritten = 0
    /// The values the save moved into files, with the references their rows hold now.
    var externalized: [ExternalizedValue] = []
}
