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
///
/// The table is one buffer of (key, object) slots the map owns, so a slot is one cache line
/// and a write is a store: two arrays cost a uniqueness check and a bounds check per write,
/// a fifth of a batched walk's registration. The map is not copyable, so it is never shared.
struct IdentityMap: ~Copyable {
    private struct Slot {
        var key: Int64
        /// Nil marks an empty slot.
        var object: Unmanaged<ManagedObject>?
    }

    private var slots: UnsafeMutablePointer<Slot>
    private var capacity: Int
    private var mask: Int
    private var shift: UInt64
    private(set) var count = 0

    init() {
        self.init(capacity: 16)
    }

    private init(capacity: Int) {
        slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
        slots.initialize(repeating: Slot(key: 0, object: nil), count: capacity)
        self.capacity = capacity
        mask = capacity - 1
        shift = UInt64(64 - capacity.trailingZeroBitCount)
    }

    deinit {
        // Slots hold only an integer and an unretained pointer: nothing to deinitialize.
        slots.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func home(_ key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    @inline(__always)
    private func find(_ key: Int64) -> (index: Int, found: Bool) {
        var index = home(key)
        while slots[index].object != nil {
            if slots[index].key == key { return (index, true) }
            index = (index + 1) & mask
        }
        return (index, false)
    }

    /// The object with `key`; setting nil removes it.
    subscript(key: Int64) -> ManagedObject? {
        get {
            let slot = find(key)
            return slot.found ? slots[slot.index].object?.takeUnretainedValue() : nil
        }
        set {
            if let newValue {
                insert(newValue, for: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Adds or replaces the object with `key`. Prefer it to the subscript's setter, which takes
    /// its new value owned: a retain and a release per registration.
    @inline(__always)
    mutating func insert(_ object: ManagedObject, for key: Int64) {
        // Four-fold growth: a fetch registering 100,000 objects rehashes a third as much as
        // with doubling.
        if (count + 1) * 4 > capacity * 3 { grow(to: capacity * 4) }
        let slot = find(key)
        if !slot.found { count += 1 }
        slots[slot.index] = Slot(key: key, object: Unmanaged.passUnretained(object))
    }

    /// The object with `key`, or else the slot where `key` goes, found with one probe for a
    /// lookup that is usually followed by an insert (room is made first). The slot is only
    /// valid until the map next changes: fill it with ``insert(_:for:atSlot:)`` before that.
    @inline(__always)
    mutating func lookUpOrPrepareSlot(for key: Int64) -> (object: ManagedObject?, slot: Int) {
        if (count + 1) * 4 > capacity * 3 { grow(to: capacity * 4) }
        let slot = find(key)
        return (slot.found ? slots[slot.index].object?.takeUnretainedValue() : nil, slot.index)
    }

    /// Inserts `object` for `key`, which the map does not hold, into the slot
    /// ``lookUpOrPrepareSlot(for:)`` gave, the map unchanged since.
    @inline(__always)
    mutating func insert(_ object: ManagedObject, for key: Int64, atSlot slot: Int) {
        count += 1
        slots[slot] = Slot(key: key, object: Unmanaged.passUnretained(object))
    }

    /// Adds objects whose keys the map does not hold and that are distinct from each other
    /// (the rows of one query, read into a context that held none of that entity): the table
    /// is sized once and no key is looked up first.
    mutating func insertNew(_ objects: [ManagedObject]) {
        reserveCapacity(count + objects.count)
        for object in objects {
            let key = object.tiebreakKey
            var index = home(key)
            while slots[index].object != nil { index = (index + 1) & mask }
            slots[index] = Slot(key: key, object: Unmanaged.passUnretained(object))
        }
        count += objects.count
    }

    /// Removes and returns the object with `key`.
    @discardableResult
    mutating func removeValue(forKey key: Int64) -> ManagedObject? {
        let slot = find(key)
        guard slot.found else { return nil }
        let removed = slots[slot.index].object?.takeUnretainedValue()
        removeSlot(slot.index)
        return removed
    }

    /// Removes the entry for `key` if it is `object`, without retaining it: called from the
    /// object's `deinit`, where taking a strong reference would be fatal. True when it was there.
    @discardableResult
    mutating func remove(_ key: Int64, ifIdenticalTo object: ManagedObject) -> Bool {
        let slot = find(key)
        guard slot.found, slots[slot.index].object?.toOpaque() == Unmanaged.passUnretained(object).toOpaque() else { return false }
        removeSlot(slot.index)
        // Most objects gone (a large fetch dropped): give the memory back.
        if capacity > 1024 && count * 16 < capacity { shrink() }
        return true
    }

    @inline(__always)
    private mutating func removeSlot(_ removed: Int) {
        slots[removed].object = nil
        count -= 1
        // Backward shift: pull later entries of the probe run into the hole.
        var hole = removed
        var index = (hole + 1) & mask
        while slots[index].object != nil {
            let ideal = home(slots[index].key)
            let stays = hole <= index ? (hole < ideal && ideal <= index) : (hole < ideal || ideal <= index)
            if !stays {
                slots[hole] = slots[index]
                slots[index].object = nil
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
    mutating func reserveCapacity(_ wanted: Int) {
        var size = capacity
        while wanted * 4 > size * 3 { size *= 2 }
        if size > capacity { grow(to: size) }
    }

    private mutating func grow(to size: Int) {
        let old = slots, oldCapacity = capacity
        slots = UnsafeMutablePointer<Slot>.allocate(capacity: size)
        slots.initialize(repeating: Slot(key: 0, object: nil), count: size)
        capacity = size
        mask = size - 1
        shift = UInt64(64 - size.trailingZeroBitCount)
        for index in 0..<oldCapacity where old[index].object != nil {
            // Re-placed without retaining (an object may be in its deinit right now).
            var target = home(old[index].key)
            while slots[target].object != nil { target = (target + 1) & mask }
            slots[target] = old[index]
        }
        old.deallocate()
    }

    mutating func removeAll() {
        self = IdentityMap()
    }

    /// Removes every object, handing each to `body` as it goes, and keeps the table's size:
    /// for a context whose every object was replaced at once (one pass, each object touched
    /// once), which is about to read as many again.
    mutating func drain(_ body: (ManagedObject) -> Void) {
        for index in 0..<capacity {
            guard let object = slots[index].object else { continue }
            slots[index].object = nil
            body(object.takeUnretainedValue())
        }
        count = 0
    }

    /// Every key held.
    var allKeys: [Int64] {
        (0..<capacity).compactMap { slots[$0].object == nil ? nil : slots[$0].key }
    }

    /// The largest key held (`Int64.min` when empty).
    var maxKey: Int64 {
        var result = Int64.min
        for index in 0..<capacity where slots[index].object != nil { result = max(result, slots[index].key) }
        return result
    }

    /// Every object held.
    var values: [ManagedObject] {
        (0..<capacity).compactMap { slots[$0].object?.takeUnretainedValue() }
    }
}
