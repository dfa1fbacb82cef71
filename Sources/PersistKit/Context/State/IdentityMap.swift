import PersistKitCollections

/// The objects a context holds for one entity, by primary key: one instance per saved row.
///
/// A fetch of 100,000 rows looks up and registers 100,000 keys, so the map is an
/// ``Int64HashTable`` (`Dictionary`'s seeded SipHash was the largest cost PersistKit added to a
/// fetch), of unretained references.
///
/// The map does not retain its objects: a context holds saved objects without changes only
/// while someone else does (changed, inserted and deleted ones are retained elsewhere by the
/// context). An object's `deinit` removes it (``remove(_:ifIdenticalTo:)``) before its memory
/// goes, so every object in the map is alive. The map is not copyable, so it is never shared.
struct IdentityMap: ~Copyable {
    private var table = Int64HashTable<Unmanaged<ManagedObject>>()

    init() {}

    var count: Int { table.count }

    var isEmpty: Bool { table.isEmpty }

    /// The object with `key`; setting nil removes it.
    subscript(key: Int64) -> ManagedObject? {
        get { table[key]?.takeUnretainedValue() }
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
        table.updateValue(Unmanaged.passUnretained(object), forKey: key)
    }

    /// Where a key that the map does not hold goes (see ``lookUpOrPrepareSlot(for:)``).
    typealias Slot = Int64HashTable<Unmanaged<ManagedObject>>.Position

    /// The object with `key`, or else the slot where `key` goes, found with one probe for a
    /// lookup that is usually followed by an insert (room is made first). The slot is only
    /// valid until the map next changes: fill it with ``insert(_:for:atSlot:)`` before that.
    @inline(__always)
    mutating func lookUpOrPrepareSlot(for key: Int64) -> (object: ManagedObject?, slot: Slot) {
        let found = table.find(key)
        return (found.value?.takeUnretainedValue(), found.position)
    }

    /// Inserts `object` for `key`, which the map does not hold, into the slot
    /// ``lookUpOrPrepareSlot(for:)`` gave, the map unchanged since.
    @inline(__always)
    mutating func insert(_ object: ManagedObject, for key: Int64, atSlot slot: Slot) {
        table.insert(Unmanaged.passUnretained(object), forKey: key, at: slot)
    }

    /// Adds objects whose keys the map does not hold and that should be distinct from each
    /// other (the rows of one query, read into a context that held none of that entity): the
    /// table is sized once and no key is looked up first. Returns the first object whose key
    /// was met already (a damaged store's rows), which is not added, nor is any after it.
    mutating func insertNew(_ objects: [ManagedObject]) -> ManagedObject? {
        table.insertNew(contentsOf: objects, key: \.identityKey, value: Unmanaged.passUnretained).map { objects[$0] }
    }

    /// Removes and returns the object with `key`.
    @discardableResult
    mutating func removeValue(forKey key: Int64) -> ManagedObject? {
        table.removeValue(forKey: key)?.takeUnretainedValue()
    }

    /// Removes the entry for `key` if it is `object`, without retaining it: called from the
    /// object's `deinit`, where taking a strong reference would be fatal. True when it was there.
    @discardableResult
    mutating func remove(_ key: Int64, ifIdenticalTo object: ManagedObject) -> Bool {
        let address = Unmanaged.passUnretained(object).toOpaque()
        guard table.removeValue(forKey: key, where: { $0.toOpaque() == address }) else { return false }
        // Most objects gone (a large fetch dropped): give the memory back.
        table.shrinkIfSparse()
        return true
    }

    /// Makes room for `capacity` objects without growing again.
    mutating func reserveCapacity(_ wanted: Int) {
        table.reserveCapacity(wanted)
    }

    mutating func removeAll() {
        table.removeAll()
    }

    /// Removes every object, handing each to `body` as it goes, and keeps the table's size:
    /// for a context whose every object was replaced at once (one pass, each object touched
    /// once), which is about to read as many again.
    mutating func drain(_ body: (ManagedObject) -> Void) {
        table.drain { _, object in body(object.takeUnretainedValue()) }
    }

    /// Every key held.
    var allKeys: [Int64] { table.keys }

    /// The largest key held (`Int64.min` when empty).
    var maxKey: Int64 {
        var result = Int64.min
        table.forEach { key, _ in result = max(result, key) }
        return result
    }

    /// Every object held.
    var values: [ManagedObject] {
        table.values.map { $0.takeUnretainedValue() }
    }
}
