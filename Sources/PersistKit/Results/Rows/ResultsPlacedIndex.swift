import PersistKitCollections

/// A results controller's rows by a 64-bit key (an object's address, or a saved row's key):
/// how a changed object's row is found again.
///
/// An ``Int64HashTable``: `Dictionary`'s SipHash made building it for 100,000 rows most of a
/// controller's first change, and each lookup a few hundred instructions. Removal shifts the
/// following entries back, so no tombstones pile up however many rows come and go.
struct ResultsPlacedIndex: ~Copyable {
    private var entries: Int64HashTable<ResultsEntry>

    init(capacity: Int = 0) {
        entries = Int64HashTable(minimumCapacity: capacity)
    }

    /// An index of `rows` under their `key` (the rows it gives nil are left out), sized for
    /// `capacity` rows once (the first change after a fetch builds it for every row).
    init(_ rows: [ResultsEntry], capacity: Int, key: (ResultsEntry) -> UInt64?) {
        self.init(capacity: capacity)
        for row in rows {
            guard let rowKey = key(row) else { continue }
            entries.updateValue(row, forKey: Int64(bitPattern: rowKey))
        }
    }

    var count: Int { entries.count }

    subscript(key: UInt64) -> ResultsEntry? {
        get { entries[Int64(bitPattern: key)] }
        set {
            if let newValue {
                entries.updateValue(newValue, forKey: Int64(bitPattern: key))
            } else {
                entries.removeValue(forKey: Int64(bitPattern: key))
            }
        }
    }

    /// The key of an object's row in the index by object.
    @inline(__always)
    static func key(_ object: AnyObject) -> UInt64 {
        UInt64(UInt(bitPattern: ObjectIdentifier(object)))
    }
}
