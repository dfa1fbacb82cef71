/// What one save writes, computed by the context and executed by the store in one transaction.
///
/// Inserted rows come in runs of one entity, in insertion order; an updated row carries only
/// the slots that changed; every updated or deleted row carries the version it was read at,
/// which the store checks when ``checksVersions`` is on (optimistic locking).
struct StoreWritePlan {
    /// Consecutive inserted rows of one entity, each the full slot storage of an object.
    struct InsertRun {
        let entity: EntityDescription
        var rows: [ContiguousArray<SQLValue>]
        /// Each row's temporary key: other rows of the save may refer to it (negated) before
        /// it has a primary key.
        var temporaryKeys: [Int64]
    }

    /// The links of one owning to-many that changed, as references (a primary key, or an
    /// unsaved object's temporary key negated).
    struct LinkChange {
        let table: JoinTable
        let owner: Int64
        var added: [Int64]
        var removed: [Int64]
        /// For an ordered table, the whole list in order: its rows are written again.
        var ordered: [Int64]?
    }

    /// A saved row whose values changed: the changed slots, and the object's storage to read
    /// their new values from (shared, not copied).
    struct Update {
        let entity: EntityDescription
        let key: Int64
        let version: Int64
        let slots: [Int]
        let storage: ContiguousArray<SQLValue>
    }

    /// A saved row to delete.
    struct Delete {
        let entity: EntityDescription
        let key: Int64
        let version: Int64
    }

    var inserts: [InsertRun] = []
    var updates: [Update] = []
    var deletes: [Delete] = []
    var links: [LinkChange] = []
    /// Whether a row changed since it was read is a conflict (merge policy `.error`) or is
    /// overwritten (`.objectTrump`).
    var checksVersions: Bool
    /// Who saved, for the transaction's history record (the context's `transactionAuthor`).
    var author: String?
    /// The saving context's `name`, for the history record.
    var contextName: String?

    init(checksVersions: Bool) {
        self.checksVersions = checksVersions
    }

    var isEmpty: Bool { inserts.isEmpty && updates.isEmpty && deletes.isEmpty && links.isEmpty }

    /// Adds an inserted row, extending the last run when it is of the same entity; a new run
    /// reserves room for the `remaining` rows still to come (this one included).
    mutating func insert(_ storage: ContiguousArray<SQLValue>, temporaryKey: Int64, of entity: EntityDescription, upTo remaining: Int) {
        if let last = inserts.indices.last, inserts[last].entity === entity {
            inserts[last].rows.append(storage)
            inserts[last].temporaryKeys.append(temporaryKey)
        } else {
            var rows: [ContiguousArray<SQLValue>] = []
            rows.reserveCapacity(remaining)
            rows.append(storage)
            var keys: [Int64] = []
            keys.reserveCapacity(remaining)
            keys.append(temporaryKey)
            inserts.append(InsertRun(entity: entity, rows: rows, temporaryKeys: keys))
        }
    }
}
