/// The flat position of each row of a results list, by object ID: how a refetch finds where
/// each refetched object was.
///
/// Keyed by the ID's number, not the whole `ObjectID`: every row has the controller's entity
/// and store, and hashing their names for 100,000 rows was most of a refetch's diff.
struct ResultsRowIndex {
    private var permanent: [Int64: Int] = [:]
    private var temporary: [Int64: Int] = [:]

    init(_ rows: [ResultsEntry]) {
        permanent.reserveCapacity(rows.count)
        for (position, row) in rows.enumerated() {
            let id = row.object.objectID
            if id.isTemporary { temporary[id.key] = position } else { permanent[id.key] = position }
        }
    }

    /// The position of the row with `id`, or nil when no row has it.
    func position(of id: ObjectID) -> Int? {
        id.isTemporary ? temporary[id.key] : permanent[id.key]
    }
}
