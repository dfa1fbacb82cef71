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
        let rowCount = try store.rowCount(of: entity)
        guard keys.count * 3 >= rowCount else { return nil }
        let objects = entityObjects(entity)
        var present = [Bool](repeating: false, count: keys.count)
        var next = 0   // rows come in key order (the key is the rowid): a merge with `keys`, no lookups
        try store.scan(entity) { key, version, decode in
            while next < keys.count, keys[next] < key { next += 1 }
            guard next < keys.count else { return false }
            guard keys[next] == key else { return true }
            present[next] = true
            next += 1
            if let object = objects.byKey[key] { try refreshIfNewer(object, version: version, decode) }
            return next < keys.count
        }
        return present
    }
}
