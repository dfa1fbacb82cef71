/// The saved objects whose derived to-many a save changes without writing their rows: when a
/// task moves from one project to another, both projects' `tasks` change, though only the
/// task's foreign key is written. The save's record names them (both sides of the change, as
/// for join-table links), so that other contexts report them and read their lists again.
extension ManagedObjectContext {
    /// The old and new targets of the to-ones the save's objects set, insert or delete, where
    /// the inverse is a to-many; each once.
    func listPartners(of pending: PendingSave) -> [StoreWritePlan.ListPartner] {
        var partners = Set<StoreWritePlan.ListPartner>()
        var result: [StoreWritePlan.ListPartner] = []
        var inverses: [ObjectIdentifier: [ToManyInverse]] = [:]
        func note(_ value: SQLValue?, _ inverse: ToManyInverse) {
            // Unsaved targets are inserted by this save, and reported as such.
            guard case .integer(let key)? = value, key > 0 else { return }
            let partner = StoreWritePlan.ListPartner(entity: inverse.destination.name, key: key,
                                                     slot: inverse.destination.columns.count + inverse.index)
            if partners.insert(partner).inserted { result.append(partner) }
        }
        // Objects come in runs of one entity: its inverses are looked up once per run.
        var last: (entity: EntityDescription, inverses: [ToManyInverse])?
        for (objects, isUpdate) in [(pending.inserts, false), (pending.updates, true), (pending.deletes, false)] {
            for object in objects where !object.entity.foreignKeySlots.isEmpty {
                if last?.entity !== object.entity {
                    let found = inverses[ObjectIdentifier(object.entity)] ?? toManyInverses(of: object.entity)
                    inverses[ObjectIdentifier(object.entity)] = found
                    last = (object.entity, found)
                }
                for inverse in last?.inverses ?? [] {
                    let old = object.committedStorage?[inverse.slot], new = object.storage[inverse.slot]
                    if isUpdate, let old, SQLValue.identical(old, new) { continue }
                    if object.deletedFlag { note(old ?? new, inverse); continue }
                    note(new, inverse)
                    if isUpdate { note(old, inverse) }
                }
            }
        }
        return result
    }

    private struct PartnerKey: Hashable {
        let entity: ObjectIdentifier
        let reference: Int64
        let index: Int
    }

    /// A foreign key whose inverse is a to-many: its slot, and the inverse's entity and index.
    struct ToManyInverse {
        let slot: Int
        let destination: EntityDescription
        let index: Int
    }

    /// The foreign keys of `entity` whose inverse is a to-many.
    func toManyInverses(of entity: EntityDescription) -> [ToManyInverse] {
        entity.relationships.compactMap { relationship in
            guard case .foreignKey(let slot, _) = relationship.storage, let inverseName = relationship.inverseName,
                  let destination = destination(of: relationship), let inverse = destination.relationship(named: inverseName),
                  inverse.kind.isToMany else { return nil }
            return ToManyInverse(slot: slot, destination: destination, index: inverse.index)
        }
    }

    /// The values of an object's foreign keys whose inverse is a to-many, by slot; nil when it
    /// has none.
    func toManyTargets(of object: ManagedObject) -> (object: ManagedObject, values: [Int: SQLValue])? {
        let inverses = toManyInverses(of: object.entity)
        guard !inverses.isEmpty else { return nil }
        return (object, Dictionary(uniqueKeysWithValues: inverses.map { ($0.slot, object.storage[$0.slot]) }))
    }

    /// After an object's values were replaced without its setters (a rollback, a refresh): tells
    /// observers of the objects whose inverse lists gained or lost it, between the targets in
    /// `before` (by slot; a slot missing: none before) and its current ones.
    func noteToManyTargets(of object: ManagedObject, changedFrom before: [Int: SQLValue]) {
        for inverse in toManyInverses(of: object.entity) {
            let old = before[inverse.slot], new = object.storage[inverse.slot]
            if let old, SQLValue.identical(old, new) { continue }
            for case .integer(let reference)? in [old, new] {
                if let target = resolve(reference, in: inverse.destination), !target.deletedFlag {
                    noteToManyChange(target, relationship: inverse.index)
                }
            }
        }
    }

    /// A refreshed object's to-ones changed (`slots`): the objects it leaves and joins, where
    /// the inverse is a to-many, are noted by reference, to be reported with the next notice.
    /// (A refresh runs while a store read is under way: they cannot be read now.)
    func queueToManyPartners(of object: ManagedObject, newStorage: ContiguousArray<SQLValue>, slots: SlotSet) {
        guard object.entity.foreignKeySlots.contains(where: slots.contains) else { return }
        for inverse in toManyInverses(of: object.entity) where slots.contains(inverse.slot) {
            for case .integer(let reference) in [object.storage[inverse.slot], newStorage[inverse.slot]] {
                pendingNotice.queuePartner(inverse.destination, reference: reference, relationship: inverse.index)
                announceHeldPartner(inverse.destination, reference: reference, relationship: inverse.index)
            }
        }
    }

    /// Reports the objects noted by ``queueToManyPartners(of:newStorage:slots:)``, reading those
    /// not held when someone is watching (they may have come to match a request).
    func queueChangedPartners() {
        let partners = pendingNotice.takePartners()
        guard !observers.isEmpty else { return }
        graph.advance()
        var seen = Set<PartnerKey>()
        for (entity, reference, index) in partners where seen.insert(PartnerKey(entity: ObjectIdentifier(entity), reference: reference, index: index)).inserted {
            // Observation heard of it when the partner was queued.
            if let target = resolve(reference, in: entity), !target.deletedFlag { queueToManyNotice(target, relationship: index) }
        }
    }
}
