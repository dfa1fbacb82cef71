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
            guard let old = kept as? Set<Value.Destination> else { return nil }
            var added: [ManagedObject] = []
            for object in new where !old.contains(object) { added.append(object) }
            // Counts tell whether any went: each one left is in both.
            if new.count - added.count == old.count { return ToManyChange(added: added, removed: []) }
            return ToManyChange(added: added, removed: old.filter { !new.contains($0) })
        }
        guard let new = new as? [Value.Destination] else { return nil }
        let common = min(new.count, held.count)
        for index in 0..<common where new[index] !== held[index] { return nil }
        return ToManyChange(added: Array(new[common...]), removed: Array(held[common...]))
    }
}
