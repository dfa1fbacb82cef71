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
struct ResultsRow {
    let object: ManagedObject
    let keys: SortKeys
}

extension ResolvedSort {
    /// Compares placed keys, then object identity, exactly as the fetch orders rows.
    @inline(__always)
    static func compare(_ a: SortKeys, _ aObject: ManagedObject, _ b: SortKeys, _ bObject: ManagedObject,
                        sorts: [ResolvedSort]) -> Int {
        for index in sorts.indices {
            let order = sorts[index].compare(a[index], b[index])
            if order != 0 { return order }
        }
        return ManagedObject.tiebreak(aObject, bObject)
    }

    @inline(__always)
    static func compare(_ a: ResultsRow, _ b: ResultsRow, sorts: [ResolvedSort]) -> Int {
        compare(a.keys, a.object, b.keys, b.object, sorts: sorts)
    }
}
