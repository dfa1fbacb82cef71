/// A hash table keyed by `Int64`: open addressing with linear probing, a multiplicative
/// (Fibonacci) hash and backward-shift deletion, in one buffer of (key, value) slots that the
/// table owns. With `Value == Void` it is a set of keys (``Int64HashSet``).
///
/// PersistKit's hot tables are keyed by primary keys and object addresses: `Dictionary`'s
/// seeded SipHash was the largest cost a fetch added to SQLite's, and a table of two arrays
/// costs a uniqueness and a bounds check per write. Here a slot is one cache line, a write is a
/// store, and the table is not copyable, so it is never shared and never copied on write.
///
/// Invariants:
/// - The capacity is a power of two, at least 16; at most three quarters of it is used.
/// - A slot is empty when its key is `Int64.min`; an empty slot's value is uninitialized. The
///   entry whose key *is* `Int64.min` lives outside the slots (`minKeyValue`), so every key
///   can be stored.
/// - Every key sits in the probe run that starts at its home slot, with no empty slot between:
///   removal shifts the later entries of the run back (no tombstones), so a lookup stops at the
///   first empty slot.
/// - `count` is the number of entries, the one outside the slots included.
///
/// Everything is `@inlinable`, so users in other modules get it specialized for their value
/// type: a generic call per probe would cost more than the probe.
public struct Int64HashTable<Value>: ~Copyable {
    @usableFromInline
    struct Slot {
        @usableFromInline var key: Int64
        @usableFromInline var value: Value

        @inlinable
        init(key: Int64, value: Value) {
            self.key = key
            self.value = value
        }
    }

    /// The key that marks an empty slot.
    @usableFromInline static var emptyKey: Int64 { .min }
    @usableFromInline static var minimumCapacity: Int { 16 }

    @usableFromInline var slots: UnsafeMutablePointer<Slot>
    @usableFromInline var capacity: Int
    @usableFromInline var mask: Int
    @usableFromInline var shift: UInt64
    /// The value of key `Int64.min`, which cannot be stored in a slot.
    @usableFromInline var minKeyValue: Value?
    /// The number of entries (`count`).
    @usableFromInline var entryCount: Int

    /// An empty table.
    @inlinable
    public init() {
        self.init(exactCapacity: Self.minimumCapacity)
    }

    /// An empty table with room for `minimumCapacity` entries before it grows.
    @inlinable
    public init(minimumCapacity: Int) {
        self.init(exactCapacity: Self.capacity(for: minimumCapacity, from: Self.minimumCapacity))
    }

    @inlinable
    init(exactCapacity capacity: Int) {
        slots = Self.allocateEmpty(capacity)
        self.capacity = capacity
        mask = capacity - 1
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        minKeyValue = nil
        entryCount = 0
    }

    @inlinable
    deinit {
        if !_isPOD(Value.self) {
            for index in 0..<capacity where slots[index].key != Self.emptyKey {
                (slots + index).deinitialize(count: 1)
            }
        }
        slots.deallocate()
    }

    @inlinable
    static func allocateEmpty(_ capacity: Int) -> UnsafeMutablePointer<Slot> {
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
        // Only the keys are written: an empty slot's value stays uninitialized.
        for index in 0..<capacity { slots[index].key = emptyKey }
        return slots
    }

    /// The smallest power of two, at least `size`, that holds `wanted` entries at three
    /// quarters full.
    @inlinable
    static func capacity(for wanted: Int, from size: Int) -> Int {
        var size = size
        while wanted * 4 > size * 3 { size *= 2 }
        return size
    }

    /// The number of entries.
    @inlinable
    public var count: Int { entryCount }

    /// Whether the table has no entries.
    @inlinable
    public var isEmpty: Bool { entryCount == 0 }

    // MARK: Probing

    @inlinable @inline(__always)
    func home(_ key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The slot holding `key`, or the empty slot where it goes. `key` must not be the empty key.
    @inlinable @inline(__always)
    func probe(_ key: Int64) -> (index: Int, found: Bool) {
        var index = home(key)
        while true {
            let stored = slots[index].key
            if stored == key { return (index, true) }
            if stored == Self.emptyKey { return (index, false) }
            index = (index + 1) & mask
        }
    }

    // MARK: Reading

    /// The value of `key`, or nil.
    @inlinable @inline(__always)
    public subscript(key: Int64) -> Value? {
        if key == Self.emptyKey { return minKeyValue }
        let slot = probe(key)
        return slot.found ? slots[slot.index].value : nil
    }

    /// Whether the table has an entry for `key`.
    @inlinable @inline(__always)
    public func contains(_ key: Int64) -> Bool {
        if key == Self.emptyKey { return minKeyValue != nil }
        return probe(key).found
    }

    /// Calls `body` with every entry, in no particular order.
    @inlinable
    public func forEach(_ body: (Int64, Value) throws -> Void) rethrows {
        if let minKeyValue { try body(Self.emptyKey, minKeyValue) }
        for index in 0..<capacity where slots[index].key != Self.emptyKey {
            try body(slots[index].key, slots[index].value)
        }
    }

    /// Every key, in no particular order.
    @inlinable
    public var keys: [Int64] {
        var keys: [Int64] = []
        keys.reserveCapacity(count)
        forEach { key, _ in keys.append(key) }
        return keys
    }

    /// Every value, in no particular order.
    @inlinable
    public var values: [Value] {
        var values: [Value] = []
        values.reserveCapacity(count)
        forEach { _, value in values.append(value) }
        return values
    }

    // MARK: Writing

    /// Sets the value of `key`; true when the key is new.
    @inlinable @inline(__always) @discardableResult
    public mutating func updateValue(_ value: Value, forKey key: Int64) -> Bool {
        if key == Self.emptyKey {
            let isNew = minKeyValue == nil
            if isNew { entryCount += 1 }
            minKeyValue = value
            return isNew
        }
        if (count + 1) * 4 > capacity * 3 { resize(to: capacity * 4) }
        let slot = probe(key)
        if slot.found {
            slots[slot.index].value = value
            return false
        }
        (slots + slot.index).initialize(to: Slot(key: key, value: value))
        entryCount += 1
        return true
    }

    /// Where a lookup that may be followed by an insert left off: see ``find(_:)``.
    public struct Position {
        /// The slot; -1 for the entry of `Int64.min`, which lives outside the slots.
        @usableFromInline let index: Int

        @inlinable
        init(index: Int) { self.index = index }
    }

    /// The value of `key`, or else the position where it goes, found with one probe; room for
    /// one more entry is made first. The position is valid until the table next changes: an
    /// insert there (``insert(_:forKey:at:)``) must come before that.
    @inlinable @inline(__always)
    public mutating func find(_ key: Int64) -> (value: Value?, position: Position) {
        if key == Self.emptyKey { return (minKeyValue, Position(index: -1)) }
        if (count + 1) * 4 > capacity * 3 { resize(to: capacity * 4) }
        let slot = probe(key)
        return (slot.found ? slots[slot.index].value : nil, Position(index: slot.index))
    }

    /// Inserts `value` for `key`, which the table does not hold, at the position ``find(_:)``
    /// gave for it, the table unchanged since.
    @inlinable @inline(__always)
    public mutating func insert(_ value: Value, forKey key: Int64, at position: Position) {
        entryCount += 1
        if position.index < 0 {
            minKeyValue = value
        } else {
            (slots + position.index).initialize(to: Slot(key: key, value: value))
        }
    }

    /// Inserts `value` for `key`, which the table must not hold (the rows of one query, read
    /// into a table that held none of them): no comparison of keys on the way.
    @inlinable @inline(__always)
    public mutating func insertNew(_ value: Value, forKey key: Int64) {
        if key == Self.emptyKey {
            minKeyValue = value
            entryCount += 1
            return
        }
        if (count + 1) * 4 > capacity * 3 { resize(to: capacity * 4) }
        var index = home(key)
        while slots[index].key != Self.emptyKey { index = (index + 1) & mask }
        (slots + index).initialize(to: Slot(key: key, value: value))
        entryCount += 1
    }

    /// Inserts an entry for each of `elements`, whose keys the table should not hold and which
    /// should be distinct (the rows of one query, read into a table that held none of them):
    /// the table is sized once, and no key is looked up first. A key met again (a damaged
    /// store can return one primary key twice) is not added twice, which would leave an entry
    /// no removal finds: the insertion stops there and returns that element's index, the
    /// elements before it inserted. Nil when all were.
    @inlinable @discardableResult
    public mutating func insertNew<Element>(contentsOf elements: [Element], key: (Element) -> Int64,
                                            value: (Element) -> Value) -> Int? {
        reserveCapacity(entryCount + elements.count)
        let slots = slots, mask = mask
        var added = 0
        defer { entryCount += added }
        for (position, element) in elements.enumerated() {
            let key = key(element)
            if key == Self.emptyKey {
                if minKeyValue != nil { return position }
                minKeyValue = value(element)
            } else {
                var index = home(key)
                // The probe run is walked to its end anyway: comparing each key on the way
                // costs a compare per occupied slot.
                while slots[index].key != Self.emptyKey {
                    if slots[index].key == key { return position }
                    index = (index + 1) & mask
                }
                (slots + index).initialize(to: Slot(key: key, value: value(element)))
            }
            added += 1
        }
        return nil
    }

    /// Removes and returns the value of `key`.
    @inlinable @discardableResult
    public mutating func removeValue(forKey key: Int64) -> Value? {
        if key == Self.emptyKey {
            guard let value = minKeyValue else { return nil }
            minKeyValue = nil
            entryCount -= 1
            return value
        }
        let slot = probe(key)
        guard slot.found else { return nil }
        return removeSlot(slot.index)
    }

    /// Removes the entry of `key` if `shouldRemove` says so of its value; true when it did.
    /// The value is lent to `shouldRemove`, not copied (an object in its `deinit` must not be
    /// retained).
    @inlinable @discardableResult
    public mutating func removeValue(forKey key: Int64, where shouldRemove: (borrowing Value) -> Bool) -> Bool {
        if key == Self.emptyKey {
            guard let value = minKeyValue, shouldRemove(value) else { return false }
            minKeyValue = nil
            entryCount -= 1
            return true
        }
        let slot = probe(key)
        guard slot.found, shouldRemove(slots[slot.index].value) else { return false }
        _ = removeSlot(slot.index)
        return true
    }

    /// Empties an occupied slot, then pulls the later entries of its probe run back into the
    /// hole, so that no lookup stops short of its key.
    @inlinable @inline(__always)
    mutating func removeSlot(_ removed: Int) -> Value {
        let value = (slots + removed).move().value
        slots[removed].key = Self.emptyKey
        entryCount -= 1
        var hole = removed
        var index = (hole + 1) & mask
        while slots[index].key != Self.emptyKey {
            let ideal = home(slots[index].key)
            // The entry stays when its home is cyclically in (hole, index].
            let stays = hole <= index ? (hole < ideal && ideal <= index) : (hole < ideal || ideal <= index)
            if !stays {
                (slots + hole).moveInitialize(from: slots + index, count: 1)
                slots[index].key = Self.emptyKey
                hole = index
            }
            index = (index + 1) & mask
        }
        return value
    }

    // MARK: Size

    /// Makes room for `wanted` entries in all without growing again.
    @inlinable
    public mutating func reserveCapacity(_ wanted: Int) {
        let size = Self.capacity(for: wanted, from: capacity)
        if size > capacity { resize(to: size) }
    }

    /// Gives memory back when most entries are gone (a large fetch let go): a table of more
    /// than 1,024 slots, a sixteenth used or less, shrinks to the smallest that is half full.
    @inlinable
    public mutating func shrinkIfSparse() {
        guard capacity > 1024 && count * 16 < capacity else { return }
        var size = Self.minimumCapacity
        while count * 2 > size { size *= 2 }
        resize(to: size)
    }

    /// Moves every entry into a new buffer of `size` slots (a power of two that holds them).
    /// Entries are moved, never copied: a value is not retained on the way.
    @inlinable
    mutating func resize(to size: Int) {
        let old = slots, oldCapacity = capacity
        slots = Self.allocateEmpty(size)
        capacity = size
        mask = size - 1
        shift = UInt64(64 - size.trailingZeroBitCount)
        for index in 0..<oldCapacity where old[index].key != Self.emptyKey {
            var target = home(old[index].key)
            while slots[target].key != Self.emptyKey { target = (target + 1) & mask }
            (slots + target).moveInitialize(from: old + index, count: 1)
        }
        old.deallocate()
    }

    /// Removes every entry and gives back a grown table (a small one is emptied in place; an
    /// empty small one is left as it is).
    @inlinable
    public mutating func removeAll() {
        guard count > 0 || capacity > Self.minimumCapacity else { return }
        guard capacity > Self.minimumCapacity else {
            drain { _, _ in }
            return
        }
        self = Int64HashTable()
    }

    /// Removes every entry, handing each to `body` as it goes, and keeps the table's size:
    /// for a table whose entries are all replaced at once, about to take as many again.
    @inlinable
    public mutating func drain(_ body: (Int64, consuming Value) -> Void) {
        if let value = minKeyValue {
            minKeyValue = nil
            body(Self.emptyKey, value)
        }
        for index in 0..<capacity where slots[index].key != Self.emptyKey {
            let slot = (slots + index).move()
            slots[index].key = Self.emptyKey
            body(slot.key, slot.value)
        }
        entryCount = 0
    }
}

/// A set of `Int64` keys: ``Int64HashTable`` without values (a slot is its key).
public typealias Int64HashSet = Int64HashTable<Void>

extension Int64HashTable where Value == Void {
    /// Adds `key`; true when it was not there yet.
    @inlinable @inline(__always) @discardableResult
    public mutating func insert(_ key: Int64) -> Bool {
        updateValue((), forKey: key)
    }

    /// Removes `key`; true when it was there.
    @inlinable @discardableResult
    public mutating func remove(_ key: Int64) -> Bool {
        removeValue(forKey: key) != nil
    }
}
