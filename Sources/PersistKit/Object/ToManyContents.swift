/// The contents of one loaded to-many: references to the related objects (their primary keys,
/// or their temporary keys negated while they are unsaved), in order.
final class ToManyContents {
    @exclusivity(unchecked) var references: [Int64] {
        didSet {
            value = nil
            memberIndex = nil
        }
    }
    /// Each reference's index in `references`, made when one link of a long list is looked up
    /// (`project.$tasks.insert(task)`) and kept by the edits of one link, so that the next ones
    /// find their member at once; any other change of `references` drops it.
    @exclusivity(unchecked) var memberIndex: [Int64: Int]?
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

    /// Where the buffers of `references` and `objects` are, to tell when an edit moved them.
    var bufferAddresses: (UnsafeRawPointer?, UnsafeRawPointer?) {
        (references.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
         objects?.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) })
    }

    init(references: [Int64], generation: Int, objects: [ManagedObject]? = nil) {
        self.references = references
        self.generation = generation
        self.objects = objects
    }
}
