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
}
