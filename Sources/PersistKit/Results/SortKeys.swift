/// The sort-key values of one row, as they were when the controller last placed it: kept so
/// the row can be found by binary search after its object changed. Up to three keys are
/// stored inline (no allocation per row).
struct SortKeys {
    private var k0: SQLValue = .null
    private var k1: SQLValue = .null
    private var k2: SQLValue = .null
    private var more: [SQLValue]?

    init(_ storage: ContiguousArray<SQLValue>, sorts: [ResolvedSort]) {
        for (index, sort) in sorts.enumerated() {
            let value = sort.slot < storage.count ? storage[sort.slot] : .null
            switch index {
            case 0: k0 = value
            case 1: k1 = value
            case 2: k2 = value
            default:
                if more == nil { more = [] }
                more?.append(value)
            }
        }
    }

    @inline(__always)
    subscript(index: Int) -> SQLValue {
        switch index {
        case 0: return k0
        case 1: return k1
        case 2: return k2
        default: return more.map { index - 3 < $0.count ? $0[index - 3] : .null } ?? .null
        }
    }

    /// Whether the object's current values still have these keys.
    func matches(_ storage: ContiguousArray<SQLValue>, sorts: [ResolvedSort]) -> Bool {
        for (index, sort) in sorts.enumerated() where sort.slot < storage.count {
            if !SQLValue.identical(self[index], storage[sort.slot]) { return false }
        }
        return true
    }
}

/// One row of a results controller: its object and the keys it was placed by.
struct ResultsRow<Result: ManagedObject> {
    let object: Result
    let keys: SortKeys
}

extension ResolvedSort {
    /// Compares two rows by keys, then by object identity, exactly as the fetch does.
    static func compare<Result>(_ a: ResultsRow<Result>, _ b: ResultsRow<Result>, sorts: [ResolvedSort]) -> Int {
        compare(a.keys, a.object.objectID, b.keys, b.object.objectID, sorts: sorts)
    }

    static func compare(_ a: SortKeys, _ aID: ObjectID, _ b: SortKeys, _ bID: ObjectID, sorts: [ResolvedSort]) -> Int {
        for (index, sort) in sorts.enumerated() {
            let order = sort.compare(a[index], b[index])
            if order != 0 { return order }
        }
        if aID.isTemporary != bID.isTemporary { return aID.isTemporary ? 1 : -1 }
        return aID.key < bID.key ? -1 : (aID.key == bID.key ? 0 : 1)
    }
}
