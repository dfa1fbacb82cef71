/// The changes a context has not yet handed to its observers: what the next
/// ``ManagedObjectContext/processPendingChanges()`` reports, as one ``ContextChanges``.
///
/// An object is reported once per notice: an insertion or deletion covers its updates.
struct PendingNotice: ~Copyable {
    /// A saved object whose values changed, with the slots that did.
    struct Update {
        let object: ManagedObject
        var slots: SlotSet
    }

    /// Objects to report as inserted: those whose `insertUnprocessed` flag is still on (a
    /// queued insertion is taken back by clearing the flag, not by searching this list).
    private(set) var inserted: [ManagedObject] = []
    private(set) var updated: [ObjectIdentifier: Update] = [:]
    /// Objects to report as deleted, by address (not a `Set` or `Dictionary`: another
    /// process's commit can delete 100,000 objects at once, and SipHash was most of it).
    private var deleted = ObjectAddressSet()
    /// The deleted objects in the order they were queued, so that `take()` hands them over
    /// without a pass over every object: holds each of `deleted` at least once (and so keeps
    /// it alive), and exactly once when the counts are equal.
    private var deletedOrder: [ManagedObject] = []
    /// Anything may have changed (a reset, another process's commit): observers refetch.
    private(set) var invalidatedAll = false
    /// Rows deleted elsewhere that the context did not hold, by entity name.
    private(set) var deletedKeys: [String: [Int64]] = [:]

    var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && !invalidatedAll && deletedKeys.isEmpty && partners.isEmpty && changedBackLists.isEmpty
    }

    /// Queues the deletion of rows the context did not hold.
    mutating func queueDeletedKeys(_ keys: [Int64], of entityName: String) {
        guard !keys.isEmpty else { return }
        deletedKeys[entityName, default: []].append(contentsOf: keys)
    }
    /// Objects whose derived to-many changed, by reference (found while a store read was under
    /// way, when objects cannot be read): resolved and queued as updates before the notice.
    private(set) var partners: [(entity: EntityDescription, reference: Int64, relationship: Int)] = []

    /// Anything may have changed: the notice tells observers to refetch.
    mutating func invalidateAll() {
        invalidatedAll = true
    }

    /// Queues the object `reference` of `entity`, whose to-many `relationship` changed, to be
    /// resolved before the notice.
    mutating func queuePartner(_ entity: EntityDescription, reference: Int64, relationship: Int) {
        partners.append((entity, reference, relationship))
    }

    /// Owned lists changed here and changed back that a refresh let go, by relationship index,
    /// with the references they held (what observers last heard): compared with the store's
    /// lists once the read under way is done, since other contexts may have changed those.
    private(set) var changedBackLists: [(object: ManagedObject, lists: [Int: [Int64]])] = []

    /// Queues `object`'s lists let go, to be compared with the store's before the notice.
    mutating func queueChangedBackLists(_ object: ManagedObject, _ lists: [Int: [Int64]]) {
        changedBackLists.append((object, lists))
    }

    /// The queued lists let go, leaving none.
    mutating func takeChangedBackLists() -> [(object: ManagedObject, lists: [Int: [Int64]])] {
        defer { changedBackLists.removeAll() }
        return changedBackLists
    }

    /// The queued partners, leaving none.
    mutating func takePartners() -> [(entity: EntityDescription, reference: Int64, relationship: Int)] {
        defer { partners.removeAll() }
        return partners
    }

    /// Queues an object to be reported as inserted (once).
    mutating func queueInsert(_ object: ManagedObject) {
        guard !object.insertUnprocessed else { return }
        object.insertUnprocessed = true
        inserted.append(object)
    }

    /// Takes back a queued insertion; false when it was not queued (already reported).
    @discardableResult
    mutating func cancelInsert(_ object: ManagedObject) -> Bool {
        guard object.insertUnprocessed else { return false }
        object.insertUnprocessed = false
        return true
    }

    @inline(__always)
    mutating func queueUpdate(_ object: ManagedObject, slot: Int) {
        updated[ObjectIdentifier(object), default: Update(object: object, slots: SlotSet())].slots.insert(slot)
    }

    mutating func queueUpdate(_ object: ManagedObject, slots: SlotSet) {
        guard !slots.isEmpty else { return }
        updated[ObjectIdentifier(object), default: Update(object: object, slots: SlotSet())].slots.formUnion(slots)
    }

    mutating func cancelUpdate(_ object: ManagedObject) {
        guard !updated.isEmpty else { return }   // no hashing: a merge may cancel for 100,000 objects
        updated[ObjectIdentifier(object)] = nil
    }

    mutating func queueDelete(_ object: ManagedObject) {
        if deleted.insert(object) { deletedOrder.append(object) }
    }

    /// Makes room for `count` more deletions at once (a merge marking many objects).
    mutating func reserveDeletes(_ count: Int) {
        deleted.reserveCapacity(deleted.count + count)
        deletedOrder.reserveCapacity(deletedOrder.count + count)
    }

    /// Takes back a queued deletion; false when none was queued.
    mutating func cancelDelete(_ object: ManagedObject) -> Bool {
        deleted.remove(object)
    }

    /// The notice of everything queued, leaving the queue empty.
    mutating func take() -> ContextChanges {
        var notice = ContextChanges()
        notice.invalidatedAll = invalidatedAll
        notice.inserted = inserted.filter(\.insertUnprocessed)
        notice.deleted = deletedOrder.count == deleted.count ? deletedOrder : queuedDeletions()
        notice.deletedKeys = deletedKeys
        for update in updated.values where !update.object.insertUnprocessed && !deleted.contains(update.object)
            && !update.slots.isEmpty {
            notice.updated.append((update.object, ChangedKeys(entity: update.object.entity, slots: update.slots)))
        }
        discard()
        return notice
    }

    /// The objects of `deleted`, each once, in the order they were queued (some deletions
    /// were cancelled, and maybe queued again).
    private func queuedDeletions() -> [ManagedObject] {
        var taken = Set<ObjectIdentifier>()
        return deletedOrder.filter { deleted.contains($0) && taken.insert(ObjectIdentifier($0)).inserted }
    }

    /// Forgets everything queued (nobody is listening).
    mutating func discard() {
        for object in inserted { object.insertUnprocessed = false }
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        deletedOrder.removeAll()
        deletedKeys.removeAll()
        invalidatedAll = false
        partners.removeAll()
        changedBackLists.removeAll()
    }
}
