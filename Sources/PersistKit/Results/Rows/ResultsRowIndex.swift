/// The flat position of each row of a results list, by object ID: how a refetch finds where
/// each refetched object was.
///
/// Keyed by the ID's number, not the whole `ObjectID`: every row has the controller's entity
/// and store, and hashing their names for 100,000 rows was most of a refetch's diff. Permanent
/// IDs (nearly every row) go in an open-addressing table with a multiplicative hash, as the
/// context's identity map does: `Dictionary`'s SipHash was then most of what was left. The ID's
/// number and kind are read from the copies an object keeps for sorting (`tiebreakKey`), not
/// from `objectID`: no run-time exclusivity check and no copy of its two strings per row.
struct ResultsRowIndex {
    private var keys: [Int64]
    private var positions: [Int]   // -1 marks an empty slot
    private let mask: Int
    private let shift: UInt64
    private var temporary: [Int64: Int] = [:]

    init(_ rows: [ResultsEntry]) {
        var size = 16
        while size < rows.count * 2 { size <<= 1 }
        keys = [Int64](repeating: 0, count: size)
        positions = [Int](repeating: -1, count: size)
        mask = size - 1
        shift = UInt64(64 - size.trailingZeroBitCount)
        for (position, row) in rows.enumerated() {
            let key = row.key
            if row.isTemporary {
                temporary[key] = position
            } else {
                let slot = find(key)
                keys[slot] = key
                positions[slot] = position
            }
        }
    }

    /// The slot holding `key`, or the empty slot where it would go.
    @inline(__always)
    private func find(_ key: Int64) -> Int {
        var slot = Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
        while positions[slot] >= 0 && keys[slot] != key { slot = (slot + 1) & mask }
        return slot
    }

    /// The position of the row with the object ID of `object`, or nil when no row has it.
    func position(of object: ManagedObject) -> Int? {
        if object.tiebreakIsTemporary { return temporary[object.tiebreakKey] }
        let position = positions[find(object.tiebreakKey)]
        return position >= 0 ? position : nil
    }

    /// The position of the row with the same identity as `row`, or nil when no row has it.
    func position(of row: ResultsEntry) -> Int? {
        if row.isTemporary { return temporary[row.key] }
        let position = positions[find(row.key)]
        return position >= 0 ? position : nil
    }
}
