/// The objects a context holds for one entity, by primary key: an open-addressing hash table
/// (linear probing, backward-shift deletion) with a multiplicative hash.
///
/// A fetch of 100,000 rows looks up and registers 100,000 keys; `Dictionary`'s seeded SipHash
/// was the largest cost PersistKit added to a fetch.
///
/// The map does not retain its objects: a context holds saved objects without changes only
/// while someone else does (changed, inserted and deleted ones are retained elsewhere by the
/// context). An object's `deinit` removes it (``remove(_:ifIdenticalTo:)``) before its memory
/// goes, so every object in the map is alive.
struct IdentityMap {
    private var keys: [Int64]
    private var objects: [Unmanaged<ManagedObject>?]   // nil marks an empty slot
    private var mask: Int
    private var shift: UInt64
    private(set) var count = 0

    init() {
        keys = [Int64](repeating: 0, count: 16)
        objects = [Unmanaged<ManagedObject>?](repeating: nil, count: 16)
        mask = 15
        shift = 60
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func home(_ key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    @inline(__always)
    private func find(_ key: Int64) -> (index: Int, found: Bool) {
        var index = home(key)
        while objects[index] != nil {
            if keys[index] == key { return (index, true) }
            index = (index + 1) & mask
        }
        return (index, false)
    }

    /// The object with `key`; setting nil removes it.
    subscript(key: Int64) -> ManagedObject? {
        get {
            let slot = find(key)
            return slot.found ? objects[slot.index]?.takeUnretainedValue() : nil
        }
        set {
            if let newValue {
                insert(newValue, for: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    private mutating func insert(_ object: ManagedObject, for key: Int64) {
        // Four-fold growth: a fetch registering 100,000 objects rehashes a third as much as
        // with doubling.
        if (count + 1) * 4 > keys.count * 3 { grow(to: keys.count * 4) }
        let slot = find(key)
        if !slot.found { count += 1 }
        keys[slot.index] = key
        objects[slot.index] = Unmanaged.passUnretained(object)
    }

    /// Adds objects whose keys the map does not hold and that are distinct from each other
    /// (the rows of one query, read into a context that held none of that entity): the table
    /// is sized once and no key is looked up first.
    mutating func insertNew(_ objects: [ManagedObject]) {
        reserveCapacity(count + objects.count)
        for object in objects {
            let key = object.tiebreakKey
            var index = home(key)
            while self.objects[index] != nil { index = (index + 1) & mask }
            keys[index] = key
            self.objects[index] = Unmanaged.passUnretained(object)
        }
        count += objects.count
    }

    /// Removes and returns the object with `key`.
    @discardableResult
    mutating func removeValue(forKey key: Int64) -> ManagedObject? {
        let slot = find(key)
        guard slot.found else { return nil }
        let removed = objects[slot.index]?.takeUnretainedValue()
        removeSlot(slot.index)
        return removed
    }

    /// Removes the entry for `key` if it is `object`, without retaining it: called from the
    /// object's `deinit`, where taking a strong reference would be fatal.
    @discardableResult
    mutating func remove(_ key: Int64, ifIdenticalTo object: ManagedObject) -> Bool {
        let slot = find(key)
        guard slot.found, objects[slot.index]?.toOpaque() == Unmanaged.passUnretained(object).toOpaque() else { return false }
        removeSlot(slot.index)
        // Most objects gone (a large fetch dropped): give the memory back.
        if keys.count > 1024 && count * 16 < keys.count { shrink() }
        return true
    }

    private mutating func removeSlot(_ removed: Int) {
        objects[removed] = nil
        count -= 1
        // Backward shift: pull later entries of the probe run into the hole.
        var hole = removed
        var index = (hole + 1) & mask
        while objects[index] != nil {
            let ideal = home(keys[index])
            let stays = hole <= index ? (hole < ideal && ideal <= index) : (hole < ideal || ideal <= index)
            if !stays {
                keys[hole] = keys[index]
                objects[hole] = objects[index]
                objects[index] = nil
                hole = index
            }
            index = (index + 1) & mask
        }
    }

    private mutating func shrink() {
        var size = 16
        while count * 2 > size { size *= 2 }
        grow(to: size)
    }

    /// Makes room for `capacity` objects without growing again.
    mutating func reserveCapacity(_ capacity: Int) {
        var size = keys.count
        while capacity * 4 > size * 3 { size *= 2 }
        if size > keys.count { grow(to: size) }
    }

    private mutating func grow(to size: Int) {
        let oldKeys = keys, oldObjects = objects
        keys = [Int64](repeating: 0, count: size)
        objects = [Unmanaged<ManagedObject>?](repeating: nil, count: size)
        mask = size - 1
        shift = UInt64(64 - (size.trailingZeroBitCount))
        count = 0
        for index in oldObjects.indices {
            if let object = oldObjects[index] {
                // Re-placed without retaining (an object may be in its deinit right now).
                let slot = find(oldKeys[index])
                keys[slot.index] = oldKeys[index]
                objects[slot.index] = object
                count += 1
            }
        }
    }

    mutating func removeAll() {
        self = IdentityMap()
    }

    /// Removes every object, handing each to `body` as it goes, and keeps the table's size:
    /// for a context whose every object was replaced at once (one pass, each object touched
    /// once), which is about to read as many again.
    mutating func drain(_ body: (ManagedObject) -> Void) {
        for index in objects.indices {
            guard let object = objects[index] else { continue }
            objects[index] = nil
            body(object.takeUnretainedValue())
        }
        count = 0
    }

    /// Every key held.
    var allKeys: [Int64] {
        objects.indices.compactMap { objects[$0] == nil ? nil : keys[$0] }
    }

    /// The largest key held (`Int64.min` when empty).
    var maxKey: Int64 {
        var result = Int64.min
        for index in objects.indices where objects[index] != nil { result = max(result, keys[index]) }
        return result
    }

    /// Every object held.
    var values: [ManagedObject] {
        objects.compactMap { $0?.takeUnretainedValue() }
    }
}
