/// Settling a row that another context or process changed since this save's context read it:
/// key by key, so that two saves changing different keys of one object both take effect.
extension SQLiteStore {
    /// A row the save could not write because another context or process got there first.
    struct Conflict {
        let entity: EntityDescription
        let key: Int64
        /// What happened, in a few words: "deleted elsewhere", "changed on both sides".
        let what: String
        /// One sentence per key in conflict: its stored, local and read values.
        let details: [String]
        /// The keys in conflict.
        var keys: [String] = []
    }

    /// An entity's row identified by primary key.
    struct RowKey: Hashable {
        let entity: String
        let key: Int64

        init(_ entity: String, _ key: Int64) {
            self.entity = entity
            self.key = key
        }
    }

    /// A row as the writer sees it now, inside the save's transaction.
    struct StoredRow {
        let version: Int64
        let storage: ContiguousArray<SQLValue>
    }

    /// The row of `entity` with primary key `key` as it stands now; nil when there is none.
    func storedRow(_ entity: EntityDescription, key: Int64, _ connection: SQLiteConnection) throws -> StoredRow? {
        let statement = try connection.cachedStatement(SchemaSQL.selectColumns(for: entity) + " WHERE "
                                                       + SQLName.quote(SchemaSQL.primaryKey) + " = ?")
        defer { statement.reset() }
        statement.bind(key, at: 1)
        guard try statement.step() else { return nil }
        return StoredRow(version: statement.int64(at: 1), storage: try RowReader(entity: entity).readStorage(statement, key: key))
    }

    /// An update whose row is no longer at the version it was read at: compares the row's
    /// values with those the object read, key by key. Keys only the other save changed are
    /// left as it wrote them; keys both changed are a conflict, which
    /// `resolution` settles or returns. A row that is gone is a conflict whatever the policy:
    /// writing it again would bring back an object another save deleted.
    func settle(_ update: StoreWritePlan.Update, _ resolution: StoreWritePlan.ConflictResolution,
                _ assigned: AssignedKeys, _ connection: SQLiteConnection,
                _ change: inout StoreChange, _ result: inout StoreWriteResult) throws -> Conflict? {
        let entity = update.entity
        guard let stored = try storedRow(entity, key: update.key, connection) else {
            let keys = update.slots.compactMap { entity.keyName(forSlot: $0) }
            return Conflict(entity: entity, key: update.key,
                            what: "deleted elsewhere" + (keys.isEmpty ? "" : "; keys changed here: " + keys.joined(separator: ", ")),
                            details: [], keys: keys)
        }
        // A key both changed is a conflict even when both wrote the same value: two
        // read-modify-writes of a counter write the same number, and one increment would be lost.
        let clashing = update.slots.filter { slot in
            update.committed.map { !SQLValue.identical(stored.storage[slot], $0[slot]) } ?? true
        }
        var written = update.slots
        var outcome = StoreWriteResult.Outcome.combined
        if !clashing.isEmpty {
            switch resolution {
            case .fail: return conflict(update, stored: stored, clashing: clashing)
            case .writeLocal: break
            case .keepStored: written = update.slots.filter { !clashing.contains($0) }
            case .discardLocal:
                written = []
                outcome = .discarded
            }
        }
        // Only owned lists changed: the row's version still moves on, as on the plain path.
        if !written.isEmpty || (update.slots.isEmpty && outcome == .combined) {
            try overwrite(update, slots: written, assigned, connection)
            change.updated[entity.name, default: []].append(update.key)
        }
        let final = try storedRow(entity, key: update.key, connection) ?? stored
        result.settled.append(.init(entity: entity, key: update.key, version: final.version, storage: final.storage, outcome: outcome))
        return nil
    }

    /// Writes `slots` of an update whatever the row's version (bumping it).
    private func overwrite(_ update: StoreWritePlan.Update, slots: [Int], _ assigned: AssignedKeys,
                           _ connection: SQLiteConnection) throws {
        let key = StatementKey.update(ObjectIdentifier(update.entity), SlotSet(slots), false)
        let statement = try connection.cachedStatement(cachedSQL(key) {
            SchemaSQL.update(for: update.entity, slots: slots, checkVersion: false)
        })
        let next = try bindValues(of: update, slots: slots, to: statement, assigned)
        statement.bind(update.key, at: next)
        try statement.run()
    }

    /// The conflict of an update whose keys `clashing` were changed on both sides.
    private func conflict(_ update: StoreWritePlan.Update, stored: StoredRow, clashing: [Int]) -> Conflict {
        let entity = update.entity
        var details: [String] = []
        var keys: [String] = []
        for slot in clashing {
            guard let key = entity.keyName(forSlot: slot) else { continue }
            let type = entity.columns[slot].type
            keys.append(key)
            var sentence = "\(entity.name) \(update.key) \(key): \(ValueText.describe(stored.storage[slot], as: type)) in the store, "
                + "\(ValueText.describe(update.storage[slot], as: type)) here"
            if let committed = update.committed {
                sentence += " (read as \(ValueText.describe(committed[slot], as: type)))"
            }
            details.append(sentence)
        }
        let others = update.slots.filter { !clashing.contains($0) }.compactMap { entity.keyName(forSlot: $0) }
        return Conflict(entity: entity, key: update.key,
                        what: "changed on both sides: " + keys.joined(separator: ", ")
                            + (others.isEmpty ? "" : "; also changed here: " + others.joined(separator: ", ")),
                        details: details, keys: keys)
    }

    /// The `.conflict` error of a failed save: every object, its keys in conflict, and their
    /// stored and local values (one problem per key).
    func conflictError(_ conflicts: [Conflict]) -> PersistError {
        let one = conflicts.count == 1
        let keys = Set(conflicts.flatMap(\.keys))
        var error = PersistError(.conflict,
            "Another context or process changed or deleted \(one ? "this object" : "these objects") since this context read \(one ? "it" : "them"): "
            + conflicts.map { "\($0.entity.name) \($0.key) (\($0.what))" }.joined(separator: "; "),
            entity: conflicts.first?.entity.name, attribute: keys.count == 1 ? keys.first : nil,
            objectIDs: conflicts.map { ObjectID(entityName: $0.entity.name, storeIdentifier: identifier, key: $0.key, isTemporary: false) },
            problems: conflicts.flatMap(\.details))
        error.store = displayPath
        return error
    }
}

extension StoreWriteResult {
    /// The rows whose changes were discarded: their owned lists are not written either.
    var discardedOwners: Set<SQLiteStore.RowKey> {
        var keys = Set<SQLiteStore.RowKey>()
        for row in settled where row.outcome == .discarded { keys.insert(.init(row.entity.name, row.key)) }
        return keys
    }
}
