/// When the context's object graph last changed, for the relationship lists it derives.
///
/// A derived to-many (a project's `tasks`, read from the tasks' foreign keys) is computed from
/// the stored rows and the context's unsaved changes, and kept with the generation it was
/// computed at: it is computed again when read at a later generation.
///
/// Invariants:
/// - `generation` only grows (wrapping): it advances whenever a relationship may have changed
///   (a link set, an object inserted, deleted, refreshed or merged), so a list kept from an
///   older generation is never taken as current.
/// - The list owners are the pending objects that may have unsaved changes to an owned list,
///   gathered at `listOwnersGeneration`; they are current only while that is `generation`, and
///   may name more objects than have such changes (each is checked when used), never fewer.
struct GraphState {
    /// The graph's generation.
    private(set) var generation = 0
    private var listOwners: [ManagedObject] = []
    private var listOwnersGeneration = -1
    /// How many list elements the edits of to-many lists have looked at or copied (buffer
    /// moves included), for the tests that count what one link costs (`RelationshipLinksTests`).
    private(set) var listEditVisits = 0

    /// An edit of a to-many list looked at or copied `count` of its elements.
    @inline(__always)
    mutating func countListEditVisits(_ count: Int) {
        listEditVisits &+= count
    }

    /// A relationship may have changed: every derived list is computed again when next read.
    @inline(__always)
    mutating func advance() {
        generation &+= 1
    }

    /// The pending objects that may have unsaved changes to an owned list, if they were
    /// gathered at this generation.
    var currentListOwners: [ManagedObject]? {
        listOwnersGeneration == generation ? listOwners : nil
    }

    /// Keeps `owners`, gathered now, as the list owners of this generation.
    mutating func setListOwners(_ owners: [ManagedObject]) {
        listOwners = owners
        listOwnersGeneration = generation
    }

    /// `owner`'s owned list now has unsaved changes: the current list owners include it.
    mutating func addListOwner(_ owner: ManagedObject) {
        if listOwnersGeneration == generation { listOwners.append(owner) }
    }
}
