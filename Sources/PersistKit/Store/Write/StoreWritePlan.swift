/// What one save writes, computed by the context and executed by the store in one transaction.
///
/// Inserted rows come in runs of one entity, in insertion order; an updated row carries only
/// the slots that changed, with the values they had when read; every updated or deleted row
/// carries the version it was read at, which the store checks (optimistic locking). A row
/// whose version moved on is compared key by key: only keys changed on both sides are a
/// conflict, settled by ``resolution``.
struct StoreWritePlan {
    /// What the store does with a row changed elsewhere in keys this save changes too (or
    /// deleted here and changed elsewhere): the context's merge policy, in the store's terms.
    enum ConflictResolution {
        /// Write nothing; the save fails with `.conflict` listing every such row.
        case fail
        /// Write this save's values (and its deletions) over the store's.
        case writeLocal
        /// Keep the store's values for the keys in conflict; write this save's other keys.
        /// A deletion of a row changed elsewhere is not done.
        case keepStored
        /// Write nothing of a row in conflict; the object takes the stored row.
        case discardLocal
    }

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
        /// The values the object had when read (its committed storage), to tell which keys
        /// another save changed; nil when no value changed (only owned lists did).
        let committed: ContiguousArray<SQLValue>?
    }

    /// A saved row to delete.
    struct Delete {
        let entity: EntityDescription
        let key: Int64
        let version: Int64
    }

    /// A saved object whose derived to-many (the inverse of other objects' foreign key) the
    /// save changes though its own row does not: the old and new target of a changed to-one.
    /// Written nowhere; the save's record names it, so other contexts report it.
    struct ListPartner: Hashable {
        let entity: String
        let key: Int64
        /// The to-many's virtual slot (after the entity's columns).
        let slot: Int
    }

    var inserts: [InsertRun] = []
    var updates: [Update] = []
    var deletes: [Delete] = []
    var links: [LinkChange] = []
    var listPartners: [ListPartner] = []
    /// How rows changed elsewhere in the same keys are settled.
    var resolution: ConflictResolution
    /// Entities whose inserted rows update the row they collide with instead (an upsert,
    /// merge policy `.objectTrump`), by entity; empty under `.error`.
    var upserts: [ObjectIdentifier: Upsert] = [:]
    /// Inserts folded into a later insert of the same save with the same unique values: their
    /// temporary key → the later one's. They write no row; references to them resolve to the
    /// later one's row, and their owned links are added to it.
    var aliases: [Int64: Int64] = [:]
    /// Inserts whose unique values equal the new values of a row this save updates: their
    /// temporary key → that row's key (they update it).
    var pendingTargets: [Int64: Int64] = [:]
    /// Who saved, for the transaction's history record (the context's `transactionAuthor`).
    var author: String?
    /// The saving context's `name`, for the history record.
    var contextName: String?

    init(resolution: ConflictResolution) {
        self.resolution = resolution
    }

    /// How one entity's inserts find the rows they update: its constraints' slots, and for each
    /// the keys of the rows that give its values up in this save (deleted, or changing them),
    /// which no longer hold them.
    struct Upsert {
        let constraints: [[Int]]
        let released: [Set<Int64>]
    }

    var isEmpty: Bool { inserts.isEmpty && updates.isEmpty && deletes.isEmpty && links.isEmpty }
}
