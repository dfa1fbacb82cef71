extension ManagedObjectContext {
    /// Below this many objects named by other processes' changes, they are always merged one by one.
    static let minimumRefreshChanges = 1_000

    /// Whether other processes' changes (read from the persistent history) name so many
    /// objects, against the number this context holds, that re-reading what it holds (and
    /// letting controllers refetch) costs less than merging them object by object: merging
    /// reads every inserted object by key, and a controller given that many changes refetches
    /// anyway. Another process replacing all 100,000 rows took twice as long merged exactly.
    func prefersRefreshingAll(after changes: [StoreChange]) -> Bool {
        var named = 0
        for change in changes where change.origin == 0 {
            for keys in change.inserted.values { named += keys.count }
            for keys in change.updated.values { named += keys.count }
            for keys in change.deleted.values { named += keys.count }
        }
        guard named >= Self.minimumRefreshChanges else { return false }
        let held = registry.heldCount
        return named * 3 >= held
    }
}
