/// A results controller's rows by a 64-bit key (an object's address, or a saved row's key):
/// how a changed object's row is found again.
///
/// Open addressing with linear probing and a multiplicative hash, as `ResultsRowIndex` has:
/// `Dictionary`'s SipHash made building it for 100,000 rows most of a controller's first change,
/// and each lookup a few hundred instructions. Removal shifts the following entries back, so
/// no tombstones pile up however many rows come and go.
struct ResultsPlacedIndex {
    private var keys: [UInt64]
    private var entries: [ResultsEntry?]   // nil marks an empty slot
    private var mask: Int
    private var shift: UInt64
    private(set) var count = 0

    init(capacity: Int = 0) {
        var size = 16
        while size * 3 < capacity * 4 { size <<= 1 }   // at most three quarters full
        keys = [UInt64](repeating: 0, count: size)
        entries = [ResultsEntry?](repeating: nil, count: size)
        mask = size - 1
        shift = UInt64(64 - size.trailingZeroBitCount)
    }

    /// An index of `rows` under their `key` (the rows it gives nil are left out), for at most
    /// `capacity` rows: one pass over unsafe buffers, no growth (the first change after a fetch
    /// builds it for every row).
    init(_ rows: [ResultsEntry], capacity: Int, key: (ResultsEntry) -> UInt64?) {
        self.init(capacity: capacity)
        let mask = mask, shift = shift
        var added = 0
        keys.withUnsafeMutableBufferPointer { keys in
            entries.withUnsafeMutableBufferPointer { entries in
                for row in rows {
                    guard let rowKey = key(row) else { continue }
                    var slot = Int(truncatingIfNeeded: (rowKey &* 0x9E37_79B9_7F4A_7C15) >> shift)
                    while entries[slot] != nil && keys[slot] != rowKey { slot = (slot + 1) & mask }
                    if entries[slot] == nil { added += 1 }
                    keys[slot] = rowKey
                    entries[slot] = row
                }
            }
        }
        count = added
    }

    @inline(__always)
    private func home(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The slot holding `key`, or the empty slot where it would go.
    @inline(__always)
    private func find(_ key: UInt64) -> Int {
        var slot = home(key)
        while entries[slot] != nil && keys[slot] != key { slot = (slot + 1) & mask }
        return slot
    }

    subscript(key: UInt64) -> ResultsEntry? {
        get { entries[find(key)] }
        set {
            if let newValue { insert(newValue, for: key) } else { remove(key) }
        }
    }

    private mutating func insert(_ entry: ResultsEntry, for key: UInt64) {
        if (count + 1) * 4 > entries.count * 3 { grow() }
        let slot = find(key)
        if entries[slot] == nil { count += 1 }
        keys[slot] = key
        entries[slot] = entry
    }

    /// Empties `key`'s slot, then moves back each following entry that may sit in it.
    private mutating func remove(_ key: UInt64) {
        var hole = find(key)
        guard entries[hole] != nil else { return }
        entries[hole] = nil
        count -= 1
        var slot = (hole + 1) & mask
        while entries[slot] != nil {
            let wanted = home(keys[slot])
            // The entry stays when its home is cyclically in (hole, slot].
            let stays = hole <= slot ? (wanted > hole && wanted <= slot) : (wanted > hole || wanted <= slot)
            if !stays {
                keys[hole] = keys[slot]
                entries[hole] = entries[slot]
                entries[slot] = nil
                hole = slot
            }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow() {
        var bigger = ResultsPlacedIndex(capacity: entries.count)
        for (slot, entry) in entries.enumerated() {
            if let entry { bigger.insert(entry, for: keys[slot]) }
        }
        self = bigger
    }

    /// The key of an object's row in the index by object.
    @inline(__always)
    static func key(_ object: AnyObject) -> UInt64 {
        UInt64(UInt(bitPattern: ObjectIdentifier(object)))
    }
}
