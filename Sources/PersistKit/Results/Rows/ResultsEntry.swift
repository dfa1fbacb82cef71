/// One row of a results controller: its object (or, in a batched controller, the saved row's
/// key) and the sort-key values it was placed by, kept so the row can be found by binary search
/// after its object changed.
///
/// A class, so row arrays hold one reference per row (a merge over 100,000 rows moves
/// pointers), with up to three keys stored inline so a comparison reads them in place.
final class ResultsEntry {
    /// The row's object, held as long as the row; nil for a saved row of a batched controller,
    /// which keeps only `savedKey` and finds the object when it is read.
    let held: ManagedObject?
    /// The saved row's primary key, when `held` is nil.
    let savedKey: Int64
    private let k0: SQLValue
    private let k1: SQLValue
    private let k2: SQLValue
    private let more: [SQLValue]?

    /// A row for `object` (held unless `holding` is false), with the keys it has now: through
    /// its to-ones for a sort by a related object's attribute.
    init(object: ManagedObject, sorts: [ResolvedSort], holding: Bool = true) {
        held = holding ? object : nil
        savedKey = object.identityKey
        let storage = object.storage
        func value(_ index: Int) -> SQLValue {
            index < sorts.count ? ResultsEntry.value(of: sorts[index], object, storage) : .null
        }
        k0 = value(0)
        k1 = value(1)
        k2 = value(2)
        more = sorts.count > 3 ? (3..<sorts.count).map(value) : nil
    }

    /// A saved row, by key, with the values its sorts read from the store.
    init(key: Int64, values: ContiguousArray<SQLValue>) {
        held = nil
        savedKey = key
        k0 = values.count > 0 ? values[0] : .null
        k1 = values.count > 1 ? values[1] : .null
        k2 = values.count > 2 ? values[2] : .null
        more = values.count > 3 ? Array(values[3...]) : nil
    }

    /// The row's identity as its object's ID has it now: an unsaved object's temporary key
    /// until it is saved.
    @inline(__always)
    var isTemporary: Bool { held?.hasTemporaryKey ?? false }
    @inline(__always)
    var key: Int64 { held?.identityKey ?? savedKey }

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

    /// Whether two rows were placed by identical keys.
    func sameKeys(as other: ResultsEntry, count: Int) -> Bool {
        (0..<count).allSatisfy { SQLValue.identical(key($0), other.key($0)) }
    }

    /// Orders a chunk's last row, by the keys its boundary copied, against `b`, as
    /// `compare(_:_:sorts:)` would: the row itself is read only when those keys tie.
    @inline(__always)
    static func compare(_ boundary: ResultsChunkBoundary, _ b: ResultsEntry, sorts: [ResolvedSort]) -> Int {
        if sorts.count > 0 {
            let order = sorts[0].compare(boundary.k0, b.k0)
            if order != 0 { return order }
        }
        if sorts.count > 1 {
            let order = sorts[1].compare(boundary.k1, b.k1)
            if order != 0 { return order }
        }
        return compare(boundary.last, b, sorts: sorts)
    }

    /// Orders two entries by their keys, then by object identity, exactly as the fetch does.
    @inline(__always)
    static func compare(_ a: ResultsEntry, _ b: ResultsEntry, sorts: [ResolvedSort]) -> Int {
        for index in sorts.indices {
            let order = sorts[index].compare(a.key(index), b.key(index))
            if order != 0 { return order }
        }
        if let x = a.held, let y = b.held { return ManagedObject.tiebreak(x, y) }
        if a.isTemporary != b.isTemporary { return a.isTemporary ? 1 : -1 }
        return a.key < b.key ? -1 : (a.key == b.key ? 0 : 1)
    }
}
