/// How a save under merge policy `.objectTrump` turns inserts that collide on a uniqueness
/// constraint into one row each: computed before the write, changing nothing in memory.
struct UpsertPlanning {
    /// The inserts that write a row (a new one, or the stored row they update), in insertion
    /// order: every insert but those folded into a later one.
    var written: [ManagedObject] = []
    /// Inserts folded into a later insert with the same unique values, each with that insert.
    var folded: [(object: ManagedObject, into: ManagedObject)] = []
    /// What the store needs: per entity, the constraints and the rows the save releases.
    var upserts: [ObjectIdentifier: StoreWritePlan.Upsert] = [:]
    /// The folded inserts' temporary keys, each to the temporary key of the insert it folded into.
    var aliases: [Int64: Int64] = [:]
    /// Inserts colliding with the new values of a row this save updates: temporary key → row key.
    var pendingTargets: [Int64: Int64] = [:]
}
