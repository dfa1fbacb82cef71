/// What a save wrote, as the context needs it to update its objects after the commit.
struct StoreWriteResult {
    /// The primary key of each inserted row, in the plan's order: the new row's, or for an
    /// insert that updated a stored row instead (an upsert), that row's.
    var keys: [Int64] = []
    /// The plan positions of the upserted inserts, each with its row's version after the save.
    var merged: [Int: Int64] = [:]
    /// Rows whose one-to-one foreign key the save cleared, by entity name: their partner was
    /// an upserted row, which took another partner from the insert.
    var unlinked: [String: [Int64]] = [:]
}
