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
