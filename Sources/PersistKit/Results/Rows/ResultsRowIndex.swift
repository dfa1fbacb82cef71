import PersistKitCollections

/// The flat position of each row of a results list, by object ID: how a refetch finds where
/// each refetched object was.
///
/// Keyed by the ID's number, not the whole `ObjectID`: every row has the controller's entity
/// and store, and hashing their names for 100,000 rows was most of a refetch's diff. Permanent
/// IDs (nearly every row) go in an ``Int64HashTable``: `Dictionary`'s SipHash was then most of
/// what was left. The ID's number and kind are read from the copies an object keeps for
/// sorting (`identityKey`), not from `objectID`: no run-time exclusivity check and no copy of
/// its two strings per row.
struct ResultsRowIndex: ~Copyable {
    private var positions: Int64HashTable<Int>
    private var temporary: [Int64: Int] = [:]

    init(_ rows: [ResultsEntry]) {
        // At most half full: lookups of rows that are not there end sooner.
        positions = Int64HashTable(minimumCapacity: rows.count * 3 / 2)
        for (position, row) in rows.enumerated() {
            if row.isTemporary {
                temporary[row.key] = position
            } else {
                positions.updateValue(position, forKey: row.key)
            }
        }
    }

    /// The position of the row with the object ID of `object`, or nil when no row has it.
    func position(of object: ManagedObject) -> Int? {
        object.hasTemporaryKey ? temporary[object.identityKey] : positions[object.identityKey]
    }

    /// The position of the row with the same identity as `row`, or nil when no row has it.
    func position(of row: ResultsEntry) -> Int? {
        row.isTemporary ? temporary[row.key] : positions[row.key]
    }
}
