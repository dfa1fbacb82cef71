/// Rows a save leaves pointing at rows it deletes.
///
/// SQLite's `ON DELETE SET NULL` clears a to-one that refers to a deleted row, but changes
/// neither the row's version nor any log: a `.noAction` relationship's children, a one-way
/// to-one's holders, or rows another process linked after this context read the graph would
/// change unseen. Other contexts would keep the old reference, and their controllers would
/// place those rows by an object that is gone. A save therefore finds such rows before it
/// deletes, and afterwards bumps their version and records them as updated, like any change.
extension SQLiteStore {
    /// A row referring to a row the save deletes: its entity, key and foreign-key slot, and
    /// the deleted row's entity name and key.
    struct DanglingReference {
        let entity: EntityDescription
        let key: Int64
        let slot: Int
        let target: (entity: String, key: Int64)
    }

    /// The rows outside the plan that refer, through a foreign key, to a row the plan deletes.
    /// Rows the plan deletes or updates itself are left out: their own writes settle them.
    func danglingReferences(_ plan: StoreWritePlan, _ connection: SQLiteConnection) throws -> [DanglingReference] {
        guard !plan.deletes.isEmpty, model.hasRelationships else { return [] }
        var doomed: [String: [Int64]] = [:]
        for delete in plan.deletes {
            doomed[delete.entity.name, default: []].append(delete.key)
            // A to-one to a parent may hold its sub-entities' rows: filed under each.
            for ancestor in delete.entity.inheritance?.ancestorNames ?? [] { doomed[ancestor, default: []].append(delete.key) }
        }
        var written: [String: Set<Int64>] = [:]
        for update in plan.updates { written[update.entity.name, default: []].insert(update.key) }
        for delete in plan.deletes { written[delete.entity.name, default: []].insert(delete.key) }
        var found: [DanglingReference] = []
        for entity in model.entities {
            for relationship in entity.relationships {
                guard case .foreignKey(let slot, _) = relationship.storage,
                      let targets = doomed[relationship.destinationEntityName] else { continue }
                let column = SQLName.quote(entity.columns[slot].name), primaryKey = SQLName.quote(SchemaSQL.primaryKey)
                let statement = try connection.cachedStatement("SELECT \(primaryKey), \(column) FROM \(SchemaSQL.source(of: entity)) "
                    + "WHERE \(column) IN (SELECT value FROM json_each(?))")
                try statement.bind([Self.jsonArray(targets.sorted())])
                let skipped = written[entity.name] ?? []
                while try statement.step() {
                    let key = statement.int64(at: 0)
                    guard !skipped.contains(key) else { continue }
                    found.append(DanglingReference(entity: entity, key: key, slot: slot,
                                                   target: (relationship.destinationEntityName, statement.int64(at: 1))))
                }
                statement.reset()
            }
        }
        return found
    }

    /// The keys a save deleted (`deleted`, by entity), filed also under each entity's
    /// ancestors: a relationship to a parent holds its sub-entities' rows.
    func deletedKeys(_ deleted: [String: [Int64]]) -> [String: Set<Int64>] {
        var result: [String: Set<Int64>] = [:]
        for (name, keys) in deleted {
            result[name, default: []].formUnion(keys)
            for ancestor in model.entity(named: name)?.inheritance?.ancestorNames ?? [] { result[ancestor, default: []].formUnion(keys) }
        }
        return result
    }

    /// After the deletes: the references whose target is gone (SQLite set them NULL) get a new
    /// version and go into the save's change and history record. Returns their keys by entity.
    func recordClearedReferences(_ references: [DanglingReference], _ connection: SQLiteConnection,
                                 _ change: inout StoreChange, _ history: inout StoreHistoryChanges) throws -> [String: [Int64]] {
        guard !references.isEmpty else { return [:] }
        let deleted = deletedKeys(change.deleted)
        // Each row's cleared slots: a row may lose several references, its neighbours others.
        var rows: [ObjectIdentifier: (entity: EntityDescription, slots: [Int64: Set<Int>])] = [:]
        // Only deletions that happened: one kept by the merge policy left its references be.
        for reference in references where deleted[reference.target.entity]?.contains(reference.target.key) == true {
            rows[ObjectIdentifier(reference.entity), default: (reference.entity, [:])].slots[reference.key, default: []].insert(reference.slot)
        }
        var result: [String: [Int64]] = [:]
        for (entity, slotsByKey) in rows.values {
            let sorted = slotsByKey.keys.sorted()
            let version = SQLName.quote(SchemaSQL.version)
            try connection.singleInt("UPDATE \(SQLName.quote(entity.name)) SET \(version) = \(version) + 1 WHERE "
                                     + "\(SQLName.quote(SchemaSQL.primaryKey)) IN (SELECT value FROM json_each(?))", [Self.jsonArray(sorted)])
            var known = Set(change.updated[entity.name] ?? [])
            for key in sorted where known.insert(key).inserted { change.updated[entity.name, default: []].append(key) }
            // One history group per set of cleared slots, its keys ascending.
            var groups: [Set<Int>: [Int64]] = [:]
            for key in sorted { groups[slotsByKey[key] ?? [], default: []].append(key) }
            for (slots, keys) in groups {
                history.updated[entity.name, default: []].append(
                    StoreHistoryChanges.UpdateGroup(keyNames: StoreHistoryChanges.names(Array(slots), of: entity), objects: keys))
            }
            history.updated[entity.name]?.sort { ($0.objects.first ?? 0) < ($1.objects.first ?? 0) }
            result[entity.name] = sorted
        }
        return result
    }
}
