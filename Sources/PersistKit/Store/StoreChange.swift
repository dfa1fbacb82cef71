/// What one save changed, as the store's change log records it for the other contexts of the
/// same container.
struct StoreChange: Sendable {
    /// Increases by one per save.
    let sequence: Int
    /// The saving context (its address), so it skips its own change.
    let origin: Int
    var inserted: [String: [Int64]] = [:]
    var updated: [String: [Int64]] = [:]
    var deleted: [String: [Int64]] = [:]
    /// Another process changed the database; what is unknown, so readers refresh everything.
    var isExternal = false
    /// The id of the history record the save wrote, if it wrote one.
    var historyID: Int64?
    /// Updated objects grouped by the names of the keys that changed, as the history record
    /// has them, when the save changed to-many lists (empty otherwise: the rows tell the rest).
    /// Both sides of a join-table link are here, though neither's row may have changed: other
    /// contexts learn from it whose lists to report and read again.
    var listChanges: [String: [StoreHistoryChanges.UpdateGroup]] = [:]

    /// Takes the list changes from the save's history record: into ``listChanges``, and the
    /// objects into ``updated`` (a link's partners are changed objects, rows written or not).
    mutating func noteListChanges(_ history: StoreHistoryChanges) {
        listChanges = history.updated
        for (entity, groups) in history.updated {
            var known = Set(updated[entity] ?? [])
            for group in groups {
                for key in group.objects where known.insert(key).inserted { updated[entity, default: []].append(key) }
            }
        }
    }
}
