import Synchronization

/// Maps the identity of an `@Attribute`'s storage key path to its slot, read without a lock.
///
/// Property wrappers cannot learn their own names, but the Swift runtime gives each
/// `\Class._name` key path one object for the life of the process. The first time a key path
/// is seen its slot is found once (through the entity's probe, under the entity's lock) and
/// published here; after that every attribute read is a few atomic loads and compares.
final class StorageSlotTable: @unchecked Sendable {
    // @unchecked Sendable: the buffers are written once at init, then only through atomics;
    // `publish` runs under the owning entity's lock, so there is one writer at a time.
    private let capacity: Int
    // Two atomics per entry: the key path's address (0 = empty) and its slot.
    private let keys: UnsafeMutablePointer<Atomic<Int>>
    private let slots: UnsafeMutablePointer<Atomic<Int>>
    private let count = Atomic<Int>(0)

    init(attributeCount: Int) {
        var capacity = 8
        while capacity < attributeCount * 2 + 2 { capacity *= 2 }
        self.capacity = capacity
        keys = .allocate(capacity: capacity)
        slots = .allocate(capacity: capacity)
        for i in 0..<capacity {
            (keys + i).initialize(to: Atomic(0))
            (slots + i).initialize(to: Atomic(-1))
        }
    }

    deinit {
        keys.deinitialize(count: capacity)
        slots.deinitialize(count: capacity)
        keys.deallocate()
        slots.deallocate()
    }

    /// The slot for a key path, or -1 if it has not been published.
    @inline(__always)
    func slot(for keyPath: AnyKeyPath) -> Int {
        let key = Int(bitPattern: UInt(bitPattern: ObjectIdentifier(keyPath)))
        let mask = capacity - 1
        var index = (key >> 4) & mask
        for _ in 0..<capacity {
            let found = keys[index].load(ordering: .acquiring)
            if found == key { return slots[index].load(ordering: .relaxed) }
            if found == 0 { return -1 }
            index = (index + 1) & mask
        }
        return -1
    }

    /// Publishes a slot. Callers hold the entity's lock, so there is one writer at a time.
    func publish(_ slot: Int, for keyPath: AnyKeyPath) {
        let key = Int(bitPattern: UInt(bitPattern: ObjectIdentifier(keyPath)))
        guard count.load(ordering: .relaxed) < capacity - 1 else { return }
        let mask = capacity - 1
        var index = (key >> 4) & mask
        for _ in 0..<capacity {
            let found = keys[index].load(ordering: .acquiring)
            if found == key { return }
            if found == 0 {
                slots[index].store(slot, ordering: .relaxed)
                keys[index].store(key, ordering: .releasing)
                count.add(1, ordering: .relaxed)
                return
            }
            index = (index + 1) & mask
        }
    }
}
