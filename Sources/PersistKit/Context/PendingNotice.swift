/// The changes a context has not yet handed to its observers: what the next
/// ``ManagedObjectContext/processPendingChanges()`` reports, as one ``ContextChanges``.
///
/// An object is reported once per notice: an insertion or deletion covers its updates.
struct PendingNotice {
    /// A saved object whose values changed, with the slots that did.
    struct Update {
        let object: ManagedObject
        var slots: SlotSet
    }

    /// Objects to report as inserted: those whose `insertUnprocessed` flag is still on (a
    /// queued insertion is taken back by clearing the flag, not by searching this list).
    private(set) var inserted: [ManagedObject] = []
    private(set) var updated: [ObjectIdentifier: Update] = [:]
    private(set) var deleted: [ObjectIdentifier: ManagedObject] = [:]
    /// Anything may have changed (a reset, another process's commit): observers refetch.
    var invalidatedAll = false
    /// Objects whose derived to-many changed, by reference (found while a store read was under
    /// way, when objects cannot be read): resolved and queued as updates before the notice.
    var partners: [(entity: EntityDescription, reference: Int64, relationship: Int)] = []

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && !invalidatedAll && partners.isEmpty }

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
        updated[ObjectIdentifier(object)] = nil
    }

    mutating func queueDelete(_ object: ManagedObject) {
        deleted[ObjectIdentifier(object)] = object
    }

    /// Takes back a queued deletion; false when none was queued.
    mutating func cancelDelete(_ object: ManagedObject) -> Bool {
        deleted.removeValue(forKey: ObjectIdentifier(object)) != nil
    }

    /// The notice of everything queued, leaving the queue empty.
    mutating func take() -> ContextChanges {
        var notice = ContextChanges()
        notice.invalidatedAll = invalidatedAll
        notice.inserted = inserted.filter(\.insertUnprocessed)
        notice.deleted = Array(deleted.values)
        for (id, update) in updated where !update.object.insertUnprocessed && deleted[id] == nil && !update.slots.isEmpty {
            notice.updated.append((update.object, ChangedKeys(entity: update.object.entity, slots: update.slots)))
        }
        discard()
        return notice
    }

    /// Forgets everything queued (nobody is listening).
    mutating func discard() {
        for object in inserted { object.insertUnprocessed = false }
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        invalidatedAll = false
        partners.removeAll()
    }
}
