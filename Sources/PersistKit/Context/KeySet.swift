/// A set of primary keys (positive integers): open addressing with linear probing and the
/// identity map's multiplicative hash. Prefetching collects the distinct keys 100,000
/// references point at with it, at a fraction of `Set<Int64>`'s seeded hashing.
struct KeySet {
    private var slots: [Int64]   // 0 marks an empty slot
    private var mask: Int
    private var shift: UInt64
    private(set) var count = 0

    init() {
        slots = [Int64](repeating: 0, count: 16)
        mask = 15
        shift = 60
    }

    /// Adds `key` (which must be positive); true when it was not there yet.
    @inline(__always)
    mutating func insert(_ key: Int64) -> Bool {
        var index = Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
        while slots[index] != 0 {
            if slots[index] == key { return false }
            index = (index + 1) & mask
        }
        slots[index] = key
        count += 1
        if count * 4 > slots.count * 3 { grow() }
        return true
    }

    private mutating func grow() {
        let old = slots
        slots = [Int64](repeating: 0, count: old.count * 2)
        mask = slots.count - 1
        shift -= 1
        count = 0
        for key in old where key != 0 { _ = insert(key) }
    }
}
