/// The objects assigning a to-many property adds to and removes from what it holds, when they
/// can be told cheaply: one `insert` or `append` on the value read costs one pass over it.
struct ToManyChange {
    let added: [ManagedObject]
    let removed: [ManagedObject]

    /// The change from `held` (the objects the property holds, in order) to `new`, for a `Set`
    /// given `kept` (the set read, equal to `held`), for an `Array` when `new` is `held` with
    /// objects appended or its last ones removed. Nil otherwise.
    static func between<Value: RelationshipValue>(held: [ManagedObject], kept: Value?, new: Value) -> ToManyChange? {
        if let new = new as? Set<Value.Destination> {
            guard let kept = kept as? Set<Value.Destination> else { return nil }
            return between(kept: kept.base, new: new.base)
        }
        guard let new = new as? [Value.Destination] else { return nil }
        return between(held: held, new: new.base)
    }

    private static func between(kept old: Set<ManagedObject>, new: Set<ManagedObject>) -> ToManyChange {
        var added: [ManagedObject] = []
        for object in new where !old.contains(object) { added.append(object) }
        // Counts tell whether any went: each one left is in both.
        if new.count - added.count == old.count { return ToManyChange(added: added, removed: []) }
        return ToManyChange(added: added, removed: old.filter { !new.contains($0) })
    }

    private static func between(held: [ManagedObject], new: [ManagedObject]) -> ToManyChange? {
        let common = min(new.count, held.count)
        for index in 0..<common where new[index] !== held[index] { return nil }
        return ToManyChange(added: Array(new[common...]), removed: Array(held[common...]))
    }
}

extension Set where Element: ManagedObject {
    /// The same set typed as `Set<ManagedObject>`, without a copy, so that code not specialized
    /// for the subclass compares it at the speed of a concrete set (a `ManagedObject` hashes and
    /// compares by identity whatever its class: the layout and the buckets are the same).
    var base: Set<ManagedObject> { unsafeBitCast(self, to: Set<ManagedObject>.self) }
}

extension Array where Element: ManagedObject {
    /// The same array typed as `[ManagedObject]`, without a copy (class references either way).
    var base: [ManagedObject] { unsafeBitCast(self, to: [ManagedObject].self) }
}
