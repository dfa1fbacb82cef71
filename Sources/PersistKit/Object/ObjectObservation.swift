import Observation
import Synchronization

/// Where Swift's Observation meets managed objects: each observed object's registrar, the key
/// paths that name its keys, and the one place a change of an object's key is announced.
///
/// Why this shape. Observation's `access` looks up a thread-local access list on every call
/// (about a hundred instructions, in Observation's library, which PersistKit cannot inline or
/// ask beforehand whether tracking is active: the thread-local is private to it), and a
/// registrar allocates two objects. So neither is paid by an object nobody observes:
/// - a read registers only on an object of a context whose ``ManagedObjectContext/isObservable``
///   is on (`Lifecycle.tracksReads`, tested with the probe flag the getter tests anyway: no
///   cost added to other reads);
/// - such a read gives the object a registrar, kept here (not in the object: no field added
///   to every object) until the object is freed (`Lifecycle.observed` tells its `deinit`);
/// - a change is announced only on an object that has one (`Lifecycle.observed`, one bit test
///   on every change path), so changes of unobserved objects cost nothing more either.
///
/// A key is named by its slot (an attribute's or to-one's column, a to-many's virtual slot
/// after the columns, as in change notices): `\ManagedObject.[observedSlot: slot]`, one key path
/// per slot number made once, shared by all objects (each object has its own registrar).
enum ObjectObservation {
    /// The registrars of the objects read by an observable context, by object.
    // Objects of several contexts (threads) are observed at once: the table is behind its mutex.
    private static let registrars = Mutex<[ObjectIdentifier: ObservationRegistrar]>([:])
    /// The key path naming each slot, made on first use.
    private static let keyPaths = Mutex<[KeyPath<ManagedObject, Int>]>([])

    /// How many objects have a registrar (for tests).
    static var observedCount: Int { registrars.withLock { $0.count } }

    /// The key path that names `slot` of any object.
    static func keyPath(forSlot slot: Int) -> KeyPath<ManagedObject, Int> {
        keyPaths.withLock { paths in
            while paths.count <= slot { paths.append(\ManagedObject.[observedSlot: paths.count]) }
            return paths[slot]
        }
    }

    /// A read of `slot` of `object`: registered with the tracking active on this thread, if any.
    static func access(_ object: ManagedObject, slot: Int) {
        let registrar = registrars.withLock { table in
            if let registrar = table[ObjectIdentifier(object)] { return registrar }
            let registrar = ObservationRegistrar()
            table[ObjectIdentifier(object)] = registrar
            return registrar
        }
        object.lifecycle.insert(.observed)
        registrar.access(object, keyPath: keyPath(forSlot: slot))
    }

    /// The registrar of an observed object (nil once it is forgotten).
    private static func registrar(of object: ManagedObject) -> ObservationRegistrar? {
        registrars.withLock { $0[ObjectIdentifier(object)] }
    }

    /// Announces that `slots` of `object` are about to change (each once): the trackings that
    /// read one of them are told now, on this thread, as Observation's `willSet` does.
    static func willChange(_ object: ManagedObject, slots: SlotSet) {
        guard let registrar = registrar(of: object) else { return }
        for slot in slots.slots { registrar.willSet(object, keyPath: keyPath(forSlot: slot)) }
    }

    /// Announces that `slots` of `object` changed, for trackings that listen after the change.
    static func didChange(_ object: ManagedObject, slots: SlotSet) {
        guard let registrar = registrar(of: object) else { return }
        for slot in slots.slots { registrar.didSet(object, keyPath: keyPath(forSlot: slot)) }
    }

    /// An observed object is being freed: its registrar goes with it (another object may
    /// later have the same address).
    static func forget(_ object: ManagedObject) {
        _ = registrars.withLock { $0.removeValue(forKey: ObjectIdentifier(object)) }
    }
}

extension ManagedObject: Observable {
    /// The value Observation's key paths name a slot by (see `ObjectObservation`); never read
    /// as a value.
    final subscript(observedSlot slot: Int) -> Int { slot }
}

extension ManagedObject {
    /// Tells Observation that `slots` are about to change: the one place every path that
    /// changes an object's keys (a set, a merge, a refresh, a rollback, a save settling its
    /// row, a relationship's inverse or delete rule, and undo) announces it. Costs one bit
    /// test on an object that was never read by a tracked context.
    @inline(__always)
    final func announceWillChange(_ slots: SlotSet) {
        if _slowPath(isObserved) { ObjectObservation.willChange(self, slots: slots) }
    }

    /// Tells Observation that `slots` changed (after `announceWillChange(_:)`).
    @inline(__always)
    final func announceDidChange(_ slots: SlotSet) {
        if _slowPath(isObserved) { ObjectObservation.didChange(self, slots: slots) }
    }

    /// Announces a change already made (a list an edit changed in place): before and after at once.
    @inline(__always)
    final func announceChange(_ slots: SlotSet) {
        if _slowPath(isObserved) {
            ObjectObservation.willChange(self, slots: slots)
            ObjectObservation.didChange(self, slots: slots)
        }
    }

    /// The slot a relationship is observed by: a to-one's column, a to-many's virtual slot
    /// after the columns (as change notices name them).
    final func observedSlot(ofRelationship index: Int) -> Int {
        if index < entity.relationships.count, case .foreignKey(let slot, _) = entity.relationships[index].storage { return slot }
        return entity.columns.count + index
    }

    /// A read of relationship `index` in an observable context: registered with Observation.
    @inline(__always)
    final func noteRelationshipRead(_ index: Int) {
        if _slowPath(lifecycle.contains(.tracksReads)), index >= 0 {
            ObjectObservation.access(self, slot: observedSlot(ofRelationship: index))
        }
    }

    /// A read of attribute slot `slot` by name (`value(forKey:)`) in an observable context.
    @inline(__always)
    final func noteAttributeRead(_ slot: Int) {
        if _slowPath(lifecycle.contains(.tracksReads)) { ObjectObservation.access(self, slot: slot) }
    }
}

extension ManagedObject {
    /// Replaces every value (a rollback, a settled row), announcing the slots that change.
    final func replaceStorage(with values: ContiguousArray<SQLValue>) {
        guard _slowPath(isObserved) else {
            storage = values
            return
        }
        let slots = SlotSet(values.indices.filter { $0 < storage.count && !SQLValue.identical(values[$0], storage[$0]) })
        announceWillChange(slots)
        storage = values
        announceDidChange(slots)
    }
}
