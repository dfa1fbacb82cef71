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
}
