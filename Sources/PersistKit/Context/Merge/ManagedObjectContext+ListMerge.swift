/// Merging other contexts' changes to to-many lists. A join-table link added or removed
/// elsewhere changes the lists on both of its sides, though neither object's row may have
/// changed (so reading the rows again shows nothing): the save's record names both sides
/// (``StoreChange/listChanges``), and they are reported here.
extension ManagedObjectContext {
    /// Reports the held objects whose lists other contexts changed under the relationships'
    /// names, and lets lists derived from the store be read again.
    /// Observation hears only the lists that read differently now: this context's unsaved
    /// changes may hide the store's (a task moved elsewhere that was changed here stays in
    /// its list here).
    func noteMergedListChanges(_ changes: [StoreChange]) {
        var changedAny = false
        var observed: [(object: ManagedObject, slots: SlotSet, lists: [Int: [Int64]])] = []
        for change in changes where change.origin != contextIdentity {
            for (entityName, groups) in change.listChanges {
                guard let entity = model.entity(named: entityName), let objects = registry.held(entity) else { continue }
                for group in groups {
                    let slots = listSlots(group.keyNames, of: entity)
                    guard !slots.isEmpty else { continue }
                    changedAny = true
                    for key in group.objects {
                        guard let object = objects.byKey[key], !object.deletedFlag else { continue }
                        if object.isObserved { observed.append((object, slots, readLists(of: object))) }
                        forgetStoredLists(of: object, slots: slots)
                        pendingNotice.queueUpdate(object, slots: slots)
                    }
                }
            }
        }
        if changedAny { graph.advance() }
        for (object, slots, lists) in observed {
            announceListChanges(of: object, relationships: slots.slots.map { $0 - object.entity.columns.count }, from: lists)
        }
    }

    /// The virtual slots of the to-many relationships among `names`.
    private func listSlots(_ names: [String], of entity: EntityDescription) -> SlotSet {
        var slots = SlotSet()
        for name in names {
            if let relationship = entity.relationship(named: name), relationship.kind.isToMany {
                slots.insert(entity.columns.count + relationship.index)
            }
        }
        return slots
    }

    /// Drops an object's loaded owned lists in `slots` that have no local changes: the next
    /// read takes the store's. (Derived lists follow the graph generation.)
    private func forgetStoredLists(of object: ManagedObject, slots: SlotSet) {
        guard let related = object.related else { return }
        let base = object.entity.columns.count
        for slot in slots.slots where related.toMany[slot - base]?.committed == nil {
            related.toMany[slot - base] = nil
        }
    }

    /// After an object's local list changes were discarded: the lists it now reads from the
    /// store may differ from those it had read (another context changed them meanwhile, while
    /// the local changes hid it). The owner and the partners that differ are reported. An
    /// unordered list that holds the same members in another order has not changed.
    func noteStoredListChanges(of object: ManagedObject, from lists: [Int: [Int64]]) {
        for (index, old) in lists.sorted(by: { $0.key < $1.key }) {
            guard let stored = toManyContents(of: object, relationship: index)?.references, stored != old else { continue }
            if object.entity.relationships[index].kind != .orderedToMany, Set(stored) == Set(old) { continue }
            noteToManyChange(object, relationship: index)
            noteListPartners(of: object, relationship: index, from: old, to: stored)
        }
    }

    /// Reports the lists a refresh let go of (changed here and changed back, queued by
    /// `noteRefreshed`) where the store's differ from what they held. An object deleted since
    /// (here or elsewhere) is reported as such; the partners it held lose it.
    func noteChangedBackLists() {
        let queued = pendingNotice.takeChangedBackLists()
        // Nobody heard the old lists: no observer, and no read Observation could have tracked.
        guard !observers.isEmpty || isObservable else { return }
        for (object, lists) in queued where object.managedObjectContext === self {
            guard !object.deletedFlag else {
                for (index, old) in lists.sorted(by: { $0.key < $1.key }) {
                    noteListPartners(of: object, relationship: index, from: old, to: [])
                }
                continue
            }
            noteStoredListChanges(of: object, from: lists)
        }
    }
}
