extension ManagedObjectContext {
    /// Re-reads registered objects of `entity` in one pass over its table, when they are a
    /// large part of it: after another process's commit every registered object is read again,
    /// and 500 keys at a time (`IN (...)`, a b-tree seek per key) cost several times a scan.
    ///
    /// Each row of a registered object is handled as a fetch handles it: an object that is
    /// unchanged here and newer in the store takes the store's values (and its observers hear
    /// of the difference). Rows of unregistered objects are skipped, never materialized. The
    /// keys are never sorted: rows are looked up in the identity map, and the scan stops after
    /// the largest key re-read.
    ///
    /// - Parameter keys: The keys of the registered objects to re-read; nil for all of them.
    /// - Returns: The keys of the re-read objects whose rows the store no longer has (in no
    ///   particular order); nil when the objects are too few of the table's rows for a scan to
    ///   pay (read them by key instead).
    func rereadRegisteredObjectsByScan(entity: EntityDescription, only keys: Set<Int64>? = nil) throws -> [Int64]? {
        let objects = entityObjects(entity)
        let wanted = keys?.count ?? objects.byKey.count
        // A table holds at least about the objects registered from it: a third of those is
        // too few, and needs no `count(*)` (a pass over the table) to tell.
        guard wanted > 500, wanted * 3 >= objects.byKey.count else { return nil }
        guard wanted * 3 >= (try store.rowCount(of: entity)) else { return nil }
        let maxKey = keys?.max() ?? objects.byKey.maxKey
        var found: [Int64] = []
        found.reserveCapacity(wanted)
        try store.scan(entity) { key, version, decode in
            guard key <= maxKey else { return false }
            guard keys?.contains(key) ?? true, let object = objects.byKey[key] else { return true }
            found.append(key)
            try refreshIfNewer(object, version: version, decode)
            return found.count < wanted
        }
        if found.count == wanted { return [] }
        let reread = keys.map(Array.init) ?? objects.byKey.allKeys
        if found.isEmpty { return reread }
        let present = Set(found)
        return reread.filter { !present.contains($0) }
    }
}
