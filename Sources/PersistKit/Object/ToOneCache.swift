/// The objects an object's to-ones were last resolved to, by relationship index, with the
/// reference each was resolved from.
///
/// Most objects have one to-one loaded (a task's project): that entry is kept inline, so
/// prefetching a to-one for 100,000 objects makes no dictionary per object.
struct ToOneCache {
    typealias Entry = (reference: Int64, object: ManagedObject)

    /// The inline entry's relationship index; -1 when it is empty.
    private var firstIndex = -1
    private var first: Entry?
    /// Entries for other relationships. Never holds `firstIndex`.
    private var others: [Int: Entry] = [:]

    /// The entry for a relationship; setting nil removes it.
    subscript(index: Int) -> Entry? {
        @inline(__always) get {
            if index == firstIndex { return first }
            return others.isEmpty ? nil : others[index]
        }
        set {
            if index == firstIndex {
                first = newValue
                if newValue == nil { firstIndex = -1 }
            } else if let newValue, firstIndex < 0 {
                firstIndex = index
                first = newValue
                if !others.isEmpty { others[index] = nil }
            } else if newValue != nil || !others.isEmpty {
                others[index] = newValue
            }
        }
    }

    mutating func removeAll() {
        firstIndex = -1
        first = nil
        others = [:]
    }
}
