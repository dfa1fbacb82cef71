extension ManagedObjectContext {
    /// Re-reads the registered objects of `entity` in one pass over its table, when they are a
    /// large part of it: after another process's commit every registered object is read again,
    /// and 500 keys at a time (`IN (...)`, a b-tree seek per key) cost several times a scan.
    ///
    /// Each row of a registered object is handled as a fetch handles it: an object that is
    /// unchanged here and newer in the store takes the store's values (and its observers hear
    /// of the difference). Rows of unregistered objects are skipped, never materialized.
    ///
    /// - Parameter keys: The registered objects' keys, in ascending order.
    /// - Returns: For each key, whether the store still has its row; nil when the registered
    ///   objects are too few of the table's rows for a scan to pay (read them by key instead).
    func rereadRegisteredObjectsByScan(entity: EntityDescription, keys: [Int64]) throws -> [Bool]? {
        guard keys.count > 500 else { return nil }
        let table = SQLName.quote(entity.name)
        let rowCount = try store.withConnection { try $0.singleInt("SELECT count(*) FROM " + table) } ?? 0
        guard Int64(keys.count) * 3 >= rowCount else { return nil }
        let objects = entityObjects(entity)
        let reader = RowReader(entity: entity)
        var present = [Bool](repeating: false, count: keys.count)
        var next = 0   // rows come in key order (the key is the rowid): a merge with `keys`, no lookups
        try store.withConnection { connection in
            let statement = try connection.cachedStatement(SchemaSQL.selectColumns(for: entity) + " ORDER BY "
                + SQLName.quote(SchemaSQL.primaryKey))
            defer { statement.reset() }
            while next < keys.count, try statement.step() {
                let key = statement.int64(at: 0)
                while next < keys.count, keys[next] < key { next += 1 }
                guard next < keys.count, keys[next] == key else { continue }
                present[next] = true
                next += 1
                if let object = objects.byKey[key] { try refreshIfNewer(object, from: statement, reader: reader, key: key) }
            }
        }
        return present
    }

    /// Takes the values of the statement's current row when the object is unchanged here and
    /// the row is newer: the rule of `materialize(_:entity:)` for a registered object.
    private func refreshIfNewer(_ object: ManagedObject, from statement: SQLiteStatement, reader: RowReader, key: Int64) throws {
        let version = statement.int64(at: 1)
        guard object.version != version, !object.deletedFlag, !object.isChangedSinceRead else { return }
        let storage = try reader.readStorage(statement, key: key)
        if object.committedStorage != nil {
            object.committedStorage = nil
            changed[ObjectIdentifier(object)] = nil
        }
        noteRefreshed(object, newStorage: storage)
        object.version = version
    }
}
