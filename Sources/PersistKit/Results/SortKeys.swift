/// One row of a results controller: its object and the sort-key values it was placed by, kept
/// so the row can be found by binary search after its object changed.
///
/// A class, so row arrays hold one reference per row (a merge over 100,000 rows moves
/// pointers), with up to three keys stored inline so a comparison reads them in place.
final class ResultsEntry {
    let object: ManagedObject
    private let k0: SQLValue
    private let k1: SQLValue
    private let k2: SQLValue
    private let more: [SQLValue]?

    init(object: ManagedObject, sorts: [ResolvedSort]) {
        self.object = object
        let storage = object.storage
        func value(_ index: Int) -> SQLValue {
            index < sorts.count ? ResultsEntry.value(of: sorts[index], object, storage) : .null
        }
        k0 = value(0)
        k1 = value(1)
        k2 = value(2)
        more = sorts.count > 3 ? (3..<sorts.count).map(value) : nil
    }

    /// What a sort reads from an object: an attribute straight from its storage, a key path
    /// through to-ones (`project.name`) from the related object as it is now.
    @inline(__always)
    static func value(of sort: ResolvedSort, _ object: ManagedObject, _ storage: ContiguousArray<SQLValue>) -> SQLValue {
        if sort.slot < storage.count { return storage[sort.slot] }
        return sort.hops.isEmpty ? .null : sort.value(of: object)
    }

    /// The `index`th sort key's value.
    @inline(__always)
    func key(_ index: Int) -> SQLValue {
        switch index {
        case 0: return k0
        case 1: return k1
        case 2: return k2
        default: return more.map { index - 3 < $0.count ? $0[index - 3] : .null } ?? .null
        }
    }

    /// Whether the object's current values (through its to-ones, for a sort by a related
    /// object's attribute) still have the keys it was placed by.
    func keysMatch(_ object: ManagedObject, sorts: [ResolvedSort]) -> Bool {
        let storage = object.storage
        for (index, sort) in sorts.enumerated() where !SQLValue.identical(key(index), ResultsEntry.value(of: sort, object, storage)) {
            return false
        }
        return true
    }

    /// Whether two entries were placed by the same keys.
    func keysMatch(_ other: ResultsEntry, count: Int) -> Bool {
        for index in 0..<count where !SQLValue.identical(key(index), other.key(index)) { return false }
        return true
    }

    /// Orders two entries by their keys, then by object identity, exactly as the fetch does.
    @inline(__always)
    static func compare(_ a: ResultsEntry, _ b: ResultsEntry, sorts: [ResolvedSort]) -> Int {
        for index in sorts.indices {
            let order = sorts[index].compare(a.key(index), b.key(index))
            if order != 0 { return order }
        }
        return ManagedObject.tiebreak(a.object, b.object)
    }
}
