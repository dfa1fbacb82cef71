import Foundation

extension SQLiteStore {
    /// Moves out of the way the unique values that other rows of the same save take, so that
    /// the save's updates can then be written in any order.
    ///
    /// SQLite checks a unique index row by row, as each row is written, and has no deferred
    /// unique constraints: in a swap (A takes B's value, B takes A's), whichever row is written
    /// first collides with the other's old value, although the save's end state is unique.
    /// (PostgreSQL without `DEFERRABLE`, Core Data and GRDB leave this to the caller.) Deletes
    /// run before every update and inserts after, so only updates need this.
    ///
    /// An updated row whose old values under a constraint are another updated row's new
    /// values is first given a placeholder in one changed column of that constraint: a blob
    /// no value can equal (a nonce drawn per process, then the row's key), which the row's
    /// own update then overwrites. Its version does not move, and no history or change is
    /// recorded: the placeholder never outlives the transaction. A row changed elsewhere
    /// since it was read (its version moved on) is left alone: its update settles it as a
    /// conflict, with the stored values intact.
    ///
    /// Costs one pass over the updates, testing each one's changed slots against its entity's
    /// constraints; only updates that change a constrained value are hashed, and only rows
    /// whose value another takes get an extra statement.
    func vacateReassignedUniqueValues(_ updates: [StoreWritePlan.Update], _ connection: SQLiteConnection) throws {
        var moving: [Int] = []
        for (index, update) in updates.enumerated() where !update.entity.uniquenessSlots.isEmpty && update.committed != nil {
            if update.entity.uniquenessSlots.contains(where: { Self.changes(update, $0) }) { moving.append(index) }
        }
        guard !moving.isEmpty else { return }
        // The new values each constraint's rows take.
        var taken = Set<ConstrainedValues>()
        for index in moving {
            let update = updates[index]
            for (constraint, slots) in update.entity.uniquenessSlots.enumerated() where Self.changes(update, slots) {
                let values = UniquenessKey(update.storage, slots: slots)
                if !values.containsNull { taken.insert(ConstrainedValues(update.entity, constraint, values)) }
            }
        }
        for index in moving {
            let update = updates[index]
            guard let committed = update.committed else { continue }
            var vacated: [Int] = []
            for (constraint, slots) in update.entity.uniquenessSlots.enumerated() where Self.changes(update, slots) {
                let old = UniquenessKey(committed, slots: slots)
                guard !old.containsNull, taken.contains(ConstrainedValues(update.entity, constraint, old)),
                      let slot = slots.first(where: update.slots.contains), !vacated.contains(slot) else { continue }
                vacated.append(slot)
            }
            if !vacated.isEmpty { try vacate(update, slots: vacated, connection) }
        }
    }

    /// Whether an update changes a value of the constraint at `slots`.
    private static func changes(_ update: StoreWritePlan.Update, _ slots: [Int]) -> Bool {
        slots.contains(where: update.slots.contains)
    }

    /// Writes the placeholder into `slots` of the update's row, if it is still at the version
    /// the update was read at.
    private func vacate(_ update: StoreWritePlan.Update, slots: [Int], _ connection: SQLiteConnection) throws {
        let entity = update.entity
        let sets = slots.map { SQLName.quote(entity.columns[$0].name) + " = ?" }.joined(separator: ", ")
        let statement = try connection.cachedStatement("UPDATE \(SchemaSQL.table(of: entity)) SET \(sets) WHERE "
            + "\(SQLName.quote(SchemaSQL.primaryKey)) = ? AND \(SQLName.quote(SchemaSQL.version)) = ?")
        var placeholder = Self.placeholderNonce
        withUnsafeBytes(of: update.key.littleEndian) { placeholder.append(contentsOf: $0) }
        var index: Int32 = 1
        for _ in slots {
            try statement.bind(.blob(placeholder), at: index)
            index += 1
        }
        statement.bind(update.key, at: index)
        statement.bind(update.version, at: index + 1)
        try statement.run()
    }

    /// A marker and 16 random bytes drawn once per process: the start of every placeholder.
    private static let placeholderNonce: Data = {
        var generator = SystemRandomNumberGenerator()
        var bytes = Data("persistkit-moving-".utf8)
        for _ in 0..<2 { withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) } }
        return bytes
    }()

    /// A constraint's values among the rows it spans: one entity's, or in an inheritance tree
    /// those of the entity that declares it and its sub-entities (whose objects number the
    /// constraint alike: a sub-entity's constraints start with its parent's).
    private struct ConstrainedValues: Hashable {
        let scope: String
        let constraint: Int
        let values: UniquenessKey

        init(_ entity: EntityDescription, _ constraint: Int, _ values: UniquenessKey) {
            scope = entity.uniquenessScope(constraint)
            self.constraint = constraint
            self.values = values
        }
    }
}
