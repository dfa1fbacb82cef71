/// The context's side of Swift's Observation (see `ObjectObservation`): which objects register
/// their reads, and the changes only Observation hears of.
extension ManagedObjectContext {
    /// Turns the read registration of every object the context holds on or off
    /// (``isObservable`` changed).
    func markObjectsObservable(_ on: Bool) {
        for objects in registry.allHeld {
            for object in objects.byKey.values { object.lifecycle.set(.tracksReads, on) }
        }
        for object in registry.insertedOrder { object.lifecycle.set(.tracksReads, on) }
    }

    /// A refresh changed a to-one whose inverse is a to-many: the partner's list changed
    /// now. Observation hears it now, if the partner is held here and observed (the notice
    /// resolves partners later, after the read under way; only held objects can be observed).
    func announceHeldPartner(_ entity: EntityDescription, reference: Int64, relationship index: Int) {
        let partner = reference < 0 ? registry.insertedObject(temporaryKey: -reference) : registry.object(of: entity, key: reference)
        guard let partner, partner.isObserved else { return }
        partner.announceChange(SlotSet([partner.entity.columns.count + index]))
    }

    /// The loaded lists of an observed object, by relationship index: what its trackings read
    /// last, since a read keeps the list it computes, and every change since was announced.
    /// Taken before a change that may leave a list as it was, for
    /// `announceListChanges(of:relationships:from:)`; empty for an object nobody observes.
    /// A member saved since the list was computed is named by its key, as the list computed
    /// again names it (an upsert's save gave the list's unsaved members keys: the same objects).
    func readLists(of object: ManagedObject) -> [Int: [Int64]] {
        guard object.isObserved, let related = object.related else { return [:] }
        return related.toMany.mapValues { contents in
            guard contents.references.contains(where: { $0 < 0 }), let objects = contents.objects,
                  objects.count == contents.references.count else { return contents.references }
            return objects.map(reference(to:))
        }
    }

    /// Announces each to-many among `indices` of an observed object whose list reads
    /// differently now than `lists` (from `readLists(of:)`; a list not loaded then is
    /// announced, having nothing to compare with). A tracking fires when what it read changes,
    /// not when a change elsewhere leaves it as it was (as `@Observable` skips a value set
    /// equal). Only observed objects pay for the comparison (their lists are read again).
    func announceListChanges(of object: ManagedObject, relationships indices: some Sequence<Int>, from lists: [Int: [Int64]]) {
        guard object.isObserved else { return }
        for index in indices {
            if let old = lists[index], let new = toManyContents(of: object, relationship: index)?.references,
               object.entity.relationships[index].kind == .orderedToMany ? old == new : Set(old) == Set(new) {
                continue
            }
            object.announceChange(SlotSet([object.entity.columns.count + index]))
        }
    }
}
