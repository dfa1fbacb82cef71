/// A set of objects by address, holding no reference to them: an open-addressing hash table
/// (linear probing, backward-shift deletion) with a multiplicative hash, like `IdentityMap`.
///
/// A context's pending notice uses it to know which objects it reports as deleted: another
/// process's commit can delete 100,000 objects at once, and neither SipHash (`Set`) nor a
/// retain and release of each object (a cache miss each) is needed to tell them apart. The
/// caller keeps the objects alive while they are in the set, so that no address is reused.
struct ObjectAddressSet {
    private var slots: [UInt]   // 0 marks an empty slot: no object lives at address 0
    private var mask: Int
    private var shift: UInt64
    private(set) var count = 0

    init() {
        slots = [UInt](repeating: 0, count: 16)
        mask = 15
        shift = 60
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private static func address(_ object: AnyObject) -> UInt {
        UInt(bitPattern: ObjectIdentifier(object))
    }

    @inline(__always)
    private func home(_ address: UInt) -> Int {
        Int(truncatingIfNeeded: (UInt64(address) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The slot holding `address`, or the empty slot where it would go.
    @inline(__always)
    private func find(_ address: UInt) -> (index: Int, found: Bool) {
        var index = home(address)
        while slots[index] != 0 {
            if slots[index] == address { return (index, true) }
            index = (index + 1) & mask
        }
        return (index, false)
    }

    func contains(_ object: AnyObject) -> Bool {
        find(Self.address(object)).found
    }

    /// Adds `object`; false when it was there already.
    @discardableResult
    mutating func insert(_ object: AnyObject) -> Bool {
        if (count + 1) * 4 > slots.count * 3 { grow(to: slots.count * 4) }
        let address = Self.address(object)
        let slot = find(address)
        guard !slot.found else { return false }
        slots[slot.index] = address
        count += 1
        return true
    }

    /// Removes `object`; false when it was not there.
    @discardableResult
    mutating func remove(_ object: AnyObject) -> Bool {
        let slot = find(Self.address(object))
        guard slot.found else { return false }
        slots[slot.index] = 0
        count -= 1
        // Backward shift: pull later entries of the probe run into the hole.
        var hole = slot.index
        var index = (hole + 1) & mask
        while slots[index] != 0 {
            let ideal = home(slots[index])
            let stays = hole <= index ? (hole < ideal && ideal <= index) : (hole < ideal || ideal <= index)
            if !stays {
                slots[hole] = slots[index]
                slots[index] = 0
                hole = index
            }
            index = (index + 1) & mask
        }
        return true
    }

    /// Makes room for `capacity` objects without growing again.
    mutating func reserveCapacity(_ capacity: Int) {
        var size = slots.count
        while capacity * 4 > size * 3 { size *= 2 }
        if size > slots.count { grow(to: size) }
    }

    private mutating func grow(to size: Int) {
        let old = slots
        slots = [UInt](repeating: 0, count: size)
        mask = size - 1
        shift = UInt64(64 - size.trailingZeroBitCount)
        for address in old where address != 0 {
            var index = home(address)
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = address
        }
    }

    /// Empties the set and gives back a grown table; an empty small one is kept as it is (a
    /// context takes a notice at every save, most with no deletion).
    mutating func removeAll() {
        guard count > 0 || slots.count > 16 else { return }
        self = ObjectAddressSet()
    }
}
