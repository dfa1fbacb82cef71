extension SQLiteStore {
    /// Executes a save's write plan in one `BEGIN IMMEDIATE` transaction, or nothing.
    ///
    /// Rows are deleted first, then updated, then inserted, so that the SQLite unique indexes
    /// (the last defence behind the context's uniqueness check) judge the save's end state;
    /// unique values that updated rows hand to each other are first moved out of the way
    /// (see `vacateReassignedUniqueValues`).
    ///
    /// Inserted rows get primary keys above the entity's high-water mark; updates set only
    /// the changed columns, where the row still has the version it was read at. A row changed
    /// since is settled key by key (see ``StoreWritePlan/resolution``): keys only the other
    /// save changed stay as it left them; keys both changed are a conflict, which under
    /// `.fail` fails the whole save with `.conflict` listing every such object.
    ///
    /// With ``StoreWritePlan/upserts``, an inserted row that collides with a stored one
    /// updates it instead (see `upsertTargets`).
    ///
    /// - Returns: the primary keys given to the inserted rows, in the plan's order (for an
    ///   upsert, the updated row's), what the upserts changed, and the rows settled against other saves, as they stand after the writes.
    func write(_ plan: StoreWritePlan, origin: Int) throws -> StoreWriteResult {
        var result = StoreWriteResult()
        _ = try save(origin: origin) { connection in
            result = StoreWriteResult()   // a retried body starts afresh
            let rowsBefore = connection.totalChanges
            var plan = plan
            // Values too large for their rows go to files first (see `SQLiteStore+ExternalData.swift`).
            if let externalData { result.externalized = try externalize(&plan, externalData) }
            var change = StoreChange(sequence: 0, origin: origin)
            // The rows that upserts update, found before this save's own writes change any.
            let targets = try upsertTargets(plan, connection)
            // Keys first: rows may refer to objects inserted later in the same save.
            let participant = saveParticipant(for: origin)
            let keys = try assignKeys(plan, targets, mappingTemporaryKeys: participant != nil, connection)
            // Deletes, then updates, then inserts: a unique value given up in a save (its row
            // deleted or changed) can be taken by another row of the same save.
            // Rows left referring to deleted ones (SQLite clears them, but tells no one).
            let dangling = try danglingReferences(plan, connection)
            var conflicts = try deleteRows(plan, connection, &change, &result)
            // Unique values other rows of the save take, out of their old rows' way: the
            // updates may then run in any order (SQLite checks unique indexes row by row).
            try vacateReassignedUniqueValues(plan.updates, connection)
            conflicts += try updateRows(plan, keys, connection, &change, &result)
            result.keys = try insertRows(plan.inserts, keys, connection, &change, upserted: &result.upserted)
            let links = try writeLinks(plan.links, keys, skipping: result.discardedOwners, deleted: change.deleted, connection)
            if !keys.appending.isEmpty { result.unlinked = try unlinkOneToOnePartners(plan, keys, connection, &change) }
            if !conflicts.isEmpty { throw conflictError(conflicts) }
            if let participant {
                try participant(StoreTransaction(connection: connection, assignedKey: { keys.byTemporaryKey[$0] }))
            }
            var recorded = try withExistingListPartners(plan, connection)
            recorded.links = links
            var history = StoreHistoryChanges(plan: recorded, change: change, model: model)
            if !plan.links.isEmpty || !plan.listPartners.isEmpty { change.noteListChanges(history) }
            result.clearedReferences = try recordClearedReferences(dangling, connection, &change, &history)
            change.historyID = try recordHistory(history, author: plan.author, contextName: plan.contextName, connection)
            result.rowsWritten = connection.totalChanges - rowsBefore
            return change
        }
        return result
    }

    /// The plan with only the list partners whose rows exist: an old target another context
    /// or process deleted since this one read it is no partner (its list went with it), and
    /// the history never names a row that is gone.
    private func withExistingListPartners(_ plan: StoreWritePlan, _ connection: SQLiteConnection) throws -> StoreWritePlan {
        guard !plan.listPartners.isEmpty else { return plan }
        var checked = plan
        checked.listPartners = try plan.listPartners.filter { partner in
            guard let entity = model.entity(named: partner.entity) else { return false }
            let statement = try connection.cachedStatement("SELECT 1 FROM \(SchemaSQL.table(of: entity)) WHERE "
                                                           + "\(SQLName.quote(SchemaSQL.primaryKey)) = ?")
            defer { statement.reset() }
            statement.bind(partner.key, at: 1)
            return try statement.step()
        }
        return checked
    }

    /// The primary keys the save's inserted rows get, in plan order, and which temporary key
    /// each replaces. Records each entity's new high-water mark.
    /// An upserted row (in `targets`, by plan position) keeps the key of the row it updates.
    private func assignKeys(_ plan: StoreWritePlan, _ targets: [Int: Int64], mappingTemporaryKeys: Bool,
                            _ connection: SQLiteConnection) throws -> AssignedKeys {
        let runs = plan.inserts
        var assigned = AssignedKeys()
        assigned.keys.reserveCapacity(runs.reduce(0) { $0 + $1.rows.count })
        assigned.targets = targets
        let byTemporaryKey = model.hasRelationships || !plan.aliases.isEmpty
        // By table: the entities of an inheritance tree share their table's keys.
        var nextKeys: [String: (entity: EntityDescription, next: Int64)] = [:]
        for run in runs {
            var nextKey = try nextKeys[run.entity.tableName]?.next ?? firstFreeKey(run.entity, connection)
            for temporaryKey in run.temporaryKeys {
                if !targets.isEmpty, let target = targets[assigned.keys.count] {
                    assigned.appending.insert(temporaryKey)
                    assigned.keys.append(target)
                } else {
                    assigned.keys.append(nextKey)
                    nextKey += 1
                }
                if byTemporaryKey { assigned.byTemporaryKey[temporaryKey] = assigned.keys[assigned.keys.count - 1] }
            }
            nextKeys[run.entity.tableName] = (run.entity, nextKey)
        }
        assigned.alias(plan.aliases)
        for (entity, next) in nextKeys.values { try recordHighWaterMark(entity, next - 1, connection) }
        return assigned
    }

    /// Remembers the largest key an entity was given (keys are never reused).
    func recordHighWaterMark(_ entity: EntityDescription, _ key: Int64, _ connection: SQLiteConnection) throws {
        try connection.singleInt("INSERT OR REPLACE INTO \(SQLName.quote(SQLiteStore.metadataTable)) (key, value) VALUES (?, ?)",
                                 [.text(SchemaSQL.highWaterKey(for: entity)), .text(String(key))])
    }

    /// Upserted rows (``AssignedKeys/targets``) update their row instead; `upserted` gets each
    /// one's plan position and the row's new version.
    private func insertRows(_ runs: [StoreWritePlan.InsertRun], _ assigned: AssignedKeys, _ connection: SQLiteConnection,
                            _ change: inout StoreChange, upserted: inout [Int: Int64]) throws -> [Int64] {
        var position = 0
        for run in runs {
            let entity = run.entity
            var writer = try ChunkedRowInsert(entity, rows: run.rows.count, store: self, connection)
            let first = position
            let references = entity.foreignKeySlots
            for storage in run.rows {
                if !assigned.targets.isEmpty, let target = assigned.targets[position] {
                    try writer.finish()   // rows are written in the plan's order
                    upserted[position] = try upsertRow(storage, into: target, of: entity, assigned, connection, &change)
                    position += 1
                    continue
                }
                var resolved: [(slot: Int, key: Int64)] = []
                for slot in references {
                    if case .integer(let reference) = storage[slot], reference < 0 {
                        resolved.append((slot, try assigned.resolve(reference, entity: entity, slot: slot)))
                    }
                }
                try writer.add(key: assigned.keys[position], storage, references: resolved)
                position += 1
            }
            try writer.finish()
            let inserted = assigned.keys[first..<position]
            change.inserted[entity.name, default: []].append(contentsOf: assigned.targets.isEmpty ? Array(inserted)
                : (first..<position).filter { assigned.targets[$0] == nil }.map { assigned.keys[$0] })
        }
        return assigned.keys
    }

    /// Adds and removes join-table rows; an ordered table's rows of a changed owner are
    /// written again with their positions.
    /// An upserted or folded insert's links are added to its row's (``AssignedKeys/appending``),
    /// after every other change.
    ///
    /// - Returns: the links as the store changed them, for the save's record: a partner whose
    ///   link was already gone (its row deleted elsewhere since the list was read) or already
    ///   there is no change, and an unordered list nothing really changed in is left out. A
    ///   link whose row this save deleted (`deleted`, by entity) went with it: a change.
    private func writeLinks(_ links: [StoreWritePlan.LinkChange], _ assigned: AssignedKeys, skipping discarded: Set<RowKey>,
                            deleted: [String: [Int64]], _ connection: SQLiteConnection) throws -> [StoreWritePlan.LinkChange] {
        let deletedHere = deletedKeys(deleted)
        var written: [StoreWritePlan.LinkChange] = []
        written.reserveCapacity(links.count)
        let kept = discarded.isEmpty ? links : links.filter { !discarded.contains(RowKey($0.table.ownerEntity, $0.owner)) }
        let appended = assigned.appending.isEmpty ? [] : kept.filter { $0.owner < 0 && assigned.appending.contains(-$0.owner) }
        for link in appended.isEmpty ? kept : kept.filter({ !($0.owner < 0 && assigned.appending.contains(-$0.owner)) }) + appended {
            let table = SQLName.quote(link.table.name)
            let owner = SQLName.quote(JoinTable.ownerColumn), destination = SQLName.quote(JoinTable.destinationColumn)
            let ownerKey = try assigned.resolve(link.owner, entity: nil, slot: nil)
            if let ordered = link.ordered, link.owner < 0, assigned.appending.contains(-link.owner) {
                try appendLinks(ordered, table: link.table, owner: ownerKey, assigned, connection)
                written.append(link)
                continue
            }
            if let ordered = link.ordered {
                let select = try connection.cachedStatement("SELECT \(destination) FROM \(table) WHERE \(owner) = ?")
                select.bind(ownerKey, at: 1)
                var stored = Set<Int64>()
                while try select.step() { stored.insert(select.int64(at: 0)) }
                select.reset()
                var effective = link
                let gone = deletedHere[link.table.destinationEntity] ?? []
                effective.removed = try link.removed.filter { reference in
                    let key = try assigned.resolve(reference, entity: nil, slot: nil)
                    return stored.contains(key) || gone.contains(key)
                }
                effective.added = try link.added.filter { !stored.contains(try assigned.resolve($0, entity: nil, slot: nil)) }
                written.append(effective)
                try connection.singleInt("DELETE FROM \(table) WHERE \(owner) = ?", [.integer(ownerKey)])
                let insert = try connection.cachedStatement("INSERT OR IGNORE INTO \(table) (\(owner), \(destination), "
                                                            + "\(SQLName.quote(JoinTable.positionColumn))) VALUES (?, ?, ?)")
                for (position, reference) in ordered.enumerated() {
                    insert.reset()
                    try insert.bind([.integer(ownerKey), .integer(try assigned.resolve(reference, entity: nil, slot: nil)),
                                     .integer(Int64(position))])
                    try insert.run()
                }
                continue
            }
            var effective = link
            effective.removed.removeAll(keepingCapacity: true)
            effective.added.removeAll(keepingCapacity: true)
            let ownerDeleted = deletedHere[link.table.ownerEntity]?.contains(ownerKey) == true
            let delete = try connection.cachedStatement("DELETE FROM \(table) WHERE \(owner) = ? AND \(destination) = ?")
            for reference in link.removed {
                let destinationKey = try assigned.resolve(reference, entity: nil, slot: nil)
                delete.reset()
                try delete.bind([.integer(ownerKey), .integer(destinationKey)])
                try delete.run()
                if connection.changes > 0 || ownerDeleted || deletedHere[link.table.destinationEntity]?.contains(destinationKey) == true {
                    effective.removed.append(reference)
                }
            }
            let insert = try connection.cachedStatement("INSERT OR IGNORE INTO \(table) (\(owner), \(destination)) VALUES (?, ?)")
            for reference in link.added {
                insert.reset()
                try insert.bind([.integer(ownerKey), .integer(try assigned.resolve(reference, entity: nil, slot: nil))])
                try insert.run()
                if connection.changes > 0 { effective.added.append(reference) }
            }
            if !effective.removed.isEmpty || !effective.added.isEmpty { written.append(effective) }
        }
        return written
    }

    /// The keys a save gives its inserted rows, and the temporary keys they replace.
    struct AssignedKeys {
        var keys: [Int64] = []
        var byTemporaryKey: [Int64: Int64] = [:]
        /// Upserts: plan positions of inserts that update an existing row, and its key.
        var targets: [Int: Int64] = [:]
        /// Temporary keys of inserts whose row already has links when theirs are written (an
        /// upsert, or an insert folded into another): their links are added, not replacing.
        var appending = Set<Int64>()

        /// Inserts folded into another insert resolve to its row, and add their links to it.
        mutating func alias(_ aliases: [Int64: Int64]) {
            for (folded, winner) in aliases {
                byTemporaryKey[folded] = byTemporaryKey[winner]
                appending.insert(folded)
            }
        }

        /// The primary key a reference names: itself when saved, the key given now to an
        /// object inserted by this save when temporary.
        func resolve(_ reference: Int64, entity: EntityDescription?, slot: Int?) throws -> Int64 {
            guard reference < 0 else { return reference }
            if let key = byTemporaryKey[-reference] { return key }
            let what = entity.flatMap { entity in slot.flatMap { entity.keyName(forSlot: $0) }.map { "\(entity.name).\($0)" } }
            throw PersistError(.validation, "Cannot save: \(what ?? "a relationship") refers to an unsaved object that is not part of this save",
                               entity: entity?.name, attribute: slot.flatMap { entity?.keyName(forSlot: $0) })
        }
    }

    /// Runs the updates; returns the conflicts (rows changed or deleted since they were read,
    /// in keys this save changes too, that the plan's resolution does not settle).
    private func updateRows(_ plan: StoreWritePlan, _ assigned: AssignedKeys, _ connection: SQLiteConnection,
                            _ change: inout StoreChange, _ result: inout StoreWriteResult) throws -> [Conflict] {
        var conflicts: [Conflict] = []
        // Rows changing the same columns share one statement: found once per column set, and
        // not looked up at all for a run of updates changing the same columns as the last.
        var statements: [StatementKey: SQLiteStatement] = [:]
        var last: (entity: EntityDescription, slots: [Int], statement: SQLiteStatement)?
        // The keys written, gathered per run of one entity and filed under its name once.
        var writtenEntity: EntityDescription?
        var writtenKeys: [Int64] = []
        func fileWrittenKeys() {
            guard let entity = writtenEntity, !writtenKeys.isEmpty else { return }
            change.updated[entity.name, default: []].append(contentsOf: writtenKeys)
            writtenKeys.removeAll(keepingCapacity: true)
        }
        for update in plan.updates {
            let statement: SQLiteStatement
            if let last, last.entity === update.entity, last.slots == update.slots {
                statement = last.statement
                statement.reset()
            } else {
                let key = StatementKey.update(ObjectIdentifier(update.entity), SlotSet(update.slots), true)
                if let known = statements[key] {
                    statement = known
                    statement.reset()
                } else {
                    statement = try connection.cachedStatement(cachedSQL(key) {
                        SchemaSQL.update(for: update.entity, slots: update.slots, checkVersion: true)
                    })
                    statements[key] = statement
                }
                last = (update.entity, update.slots, statement)
            }
            let next = try bindValues(of: update, slots: update.slots, to: statement, assigned)
            statement.bind(update.key, at: next)
            statement.bind(update.version, at: next + 1)
            try statement.run()
            if connection.changes == 1 {
                if writtenEntity !== update.entity {
                    fileWrittenKeys()
                    writtenEntity = update.entity
                }
                writtenKeys.append(update.key)
            } else {
                // Settling may file the key itself: the keys before it go first, in order.
                fileWrittenKeys()
                if let conflict = try settle(update, plan.resolution, assigned, connection, &change, &result) {
                    conflicts.append(conflict)
                }
            }
        }
        fileWrittenKeys()
        return conflicts
    }

    /// Binds the values of `slots` of an update from parameter 1 on (references to objects
    /// this save inserts become their new keys); returns the next parameter's index.
    func bindValues(of update: StoreWritePlan.Update, slots: [Int], to statement: SQLiteStatement,
                    _ assigned: AssignedKeys) throws -> Int32 {
        var index: Int32 = 1
        for slot in slots {
            if case .integer(let reference) = update.storage[slot], reference < 0, update.entity.foreignKeySlots.contains(slot) {
                statement.bind(try assigned.resolve(reference, entity: update.entity, slot: slot), at: index)
            } else {
                try statement.bind(update.storage[slot], at: index)
            }
            index += 1
        }
        return index
    }

    private func deleteRows(_ plan: StoreWritePlan, _ connection: SQLiteConnection,
                            _ change: inout StoreChange, _ result: inout StoreWriteResult) throws -> [Conflict] {
        var conflicts: [Conflict] = []
        for delete in plan.deletes {
            let statement = try connection.cachedStatement(SchemaSQL.delete(for: delete.entity))
            statement.bind(delete.key, at: 1)
            statement.bind(delete.version, at: 2)
            try statement.run()
            if connection.changes != 1, let stored = try storedRow(delete.entity, key: delete.key, connection) {
                // Changed since read (already gone is fine: nothing is lost).
                switch plan.resolution {
                case .fail:
                    conflicts.append(Conflict(entity: delete.entity, key: delete.key,
                                              what: "deleted here, changed elsewhere since read", details: []))
                case .writeLocal:
                    try connection.singleInt("DELETE FROM \(SchemaSQL.table(of: delete.entity)) WHERE \(SQLName.quote(SchemaSQL.primaryKey)) = ?",
                                             [.integer(delete.key)])
                case .keepStored, .discardLocal:
                    result.settled.append(.init(entity: delete.entity, key: delete.key, version: stored.version,
                                                storage: stored.storage, outcome: .keptFromDeletion))
                    continue
                }
            }
            change.deleted[delete.entity.name, default: []].append(delete.key)
        }
        return conflicts
    }

    /// The first primary key a save may give: above every key the entity ever had (the
    /// high-water mark, which deletions do not lower) and every row present. Read inside the
    /// save's write transaction, so other processes cannot take the same keys.
    func firstFreeKey(_ entity: EntityDescription, _ connection: SQLiteConnection) throws -> Int64 {
        let highWater = try connection.singleText(
            "SELECT value FROM \(SQLName.quote(SQLiteStore.metadataTable)) WHERE key = ?",
            [.text(SchemaSQL.highWaterKey(for: entity))]).flatMap { Int64($0) } ?? 0
        let largest = try connection.singleInt(
            "SELECT max(\(SQLName.quote(SchemaSQL.primaryKey))) FROM \(SchemaSQL.table(of: entity))") ?? 0
        return max(highWater, largest) + 1
    }
}
