/// What an object holds of its relationships beyond its storage slots: loaded to-many lists,
/// the objects its to-ones were resolved to, and assignments that were refused.
///
/// Made only when a relationship is first read or set, so a fetched object that is never
/// navigated costs nothing more.
final class RelatedObjects {
    /// The object a to-one's reference was last resolved to, kept alive with the source (as
    /// Core Data's fulfilled faults are); valid while the reference is unchanged.
    // Confined to the context's thread like the object: no run-time exclusivity checks.
    @exclusivity(unchecked) var toOne = ToOneCache()
    /// Loaded to-manys, by relationship index.
    @exclusivity(unchecked) var toMany: [Int: ToManyContents] = [:]
    /// Assignments refused (an object of another context, a deleted one...): reported by the
    /// next save, cleared by the next assignment of the same relationship.
    @exclusivity(unchecked) var problems: [Int: String] = [:]
    /// Assignments made while the object was in no context, by relationship index: a batch
    /// insert's fill closure sets to-ones this way.
    @exclusivity(unchecked) var detached: [Int: [ManagedObject]] = [:]

    /// Whether an owned to-many list differs from what was saved.
    var hasChanges: Bool {
        toMany.values.contains { $0.committed != nil && $0.committed != $0.references }
    }
}

/// The contents of one loaded to-many: references to the related objects (their primary keys,
/// or their temporary keys negated while they are unsaved), in order.
final class ToManyContents {
    @exclusivity(unchecked) var references: [Int64] {
        didSet { value = nil }
    }
    /// The owning side's list as saved, kept from its first change until save or rollback.
    @exclusivity(unchecked) var committed: [Int64]?
    /// For a side derived from the other one: the context's graph generation it was computed
    /// at (a newer generation means it must be computed again). A change of one link updates
    /// the lists it touches in place instead, keeping them current.
    @exclusivity(unchecked) var generation: Int
    /// The objects, when they were materialized (reads and prefetching keep them alive).
    @exclusivity(unchecked) var objects: [ManagedObject]? {
        didSet { value = nil }
    }
    /// The property's value (a `Set` or an `Array` of the destination class) last read or
    /// assigned, while `objects` is unchanged: reading the property again returns it without
    /// building a collection, and assigning it back compares against it (one link added to a
    /// list of n costs one pass over n, not a rebuild of both sides).
    @exclusivity(unchecked) var value: Any?
    /// For a list derived from its children's positions (an ordered to-many whose inverse is a
    /// to-one): whether those positions are 0, 1, 2... in order, so a child appended at
    /// position `count` goes at the end. False when unknown.
    @exclusivity(unchecked) var isDense = false
    /// The graph generation at which `objects` were last found all in the context and not
    /// deleted: every deletion, and every object leaving the context, starts a new generation,
    /// so reading the list again within one needs no look at each object.
    @exclusivity(unchecked) var checkedGeneration = -1

    init(references: [Int64], generation: Int, objects: [ManagedObject]? = nil) {
        self.references = references
        self.generation = generation
        self.objects = objects
    }
}
