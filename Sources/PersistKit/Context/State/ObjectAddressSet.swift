import PersistKitCollections

/// A set of objects by address, holding no reference to them: an ``Int64HashSet`` of their
/// addresses.
///
/// A context's pending notice uses it to know which objects it reports as deleted: another
/// process's commit can delete 100,000 objects at once, and neither SipHash (`Set`) nor a
/// retain and release of each object (a cache miss each) is needed to tell them apart. The
/// caller keeps the objects alive while they are in the set, so that no address is reused.
struct ObjectAddressSet: ~Copyable {
    private var addresses = Int64HashSet()

    init() {}

    var count: Int { addresses.count }

    var isEmpty: Bool { addresses.isEmpty }

    @inline(__always)
    private static func address(_ object: AnyObject) -> Int64 {
        Int64(Int(bitPattern: ObjectIdentifier(object)))
    }

    func contains(_ object: AnyObject) -> Bool {
        addresses.contains(Self.address(object))
    }

    /// Adds `object`; false when it was there already.
    @discardableResult
    mutating func insert(_ object: AnyObject) -> Bool {
        addresses.insert(Self.address(object))
    }

    /// Removes `object`; false when it was not there.
    @discardableResult
    mutating func remove(_ object: AnyObject) -> Bool {
        addresses.remove(Self.address(object))
    }

    /// Makes room for `capacity` objects without growing again.
    mutating func reserveCapacity(_ capacity: Int) {
        addresses.reserveCapacity(capacity)
    }

    /// Empties the set and gives back a grown table; an empty small one is kept as it is (a
    /// context takes a notice at every save, most with no deletion).
    mutating func removeAll() {
        addresses.removeAll()
    }
}
