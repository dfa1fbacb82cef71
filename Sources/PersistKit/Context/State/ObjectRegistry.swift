/// The objects a context holds: its saved objects by entity and primary key (one instance per
/// row, see ``IdentityMap``), its unsaved inserts in insertion order, and the scopes of its
/// object IDs.
///
/// Invariants:
/// - A saved row has at most one registered object, filed under its entity and its key; the
///   identity maps do not retain them, and an object's `deinit` takes it out.
/// - `insertedCount` is the number of entries of `insertedOrder` whose `insertedFlag` is on
///   (an insert deleted before a save stays in the list with the flag off).
/// - `byTemporaryKey` holds the unsaved inserts of a model with relationships by their
///   temporary key (references to unsaved objects are their negated temporary keys), and no
///   saved object.
///
/// The registry changes only its own state: setting an object's flags or its context is the
/// context's work, before or after it calls the registry.
struct ObjectRegistry {
    /// Saved objects, by entity.
    private var saved: [ObjectIdentifier: EntityObjects] = [:]
    /// Inserted objects in insertion order; an entry whose `insertedFlag` is off was deleted.
    private(set) var insertedOrder: [ManagedObject] = []
    /// The entries of `insertedOrder` that are still inserted.
    private(set) var insertedCount = 0
    /// Unsaved inserts by temporary key, for resolving references to them (models with
    /// relationships only).
    private var byTemporaryKey: [Int64: ManagedObject] = [:]
    /// The scopes of the context's object IDs, by entity.
    private var scopes = ObjectIDScopes()

    // MARK: Saved objects

    /// The saved objects of `entity` the context holds, if it ever held one.
    @inline(__always)
    func held(_ entity: EntityDescription) -> EntityObjects? {
        saved[ObjectIdentifier(entity)]
    }

    /// The saved objects of `entity`, made empty the first time.
    @inline(__always)
    mutating func objects(of entity: EntityDescription) -> EntityObjects {
        let key = ObjectIdentifier(entity)
        if let objects = saved[key] { return objects }
        let objects = EntityObjects()
        saved[key] = objects
        return objects
    }

    /// The registered object of `entity`'s row `key`.
    @inline(__always)
    func object(of entity: EntityDescription, key: Int64) -> ManagedObject? {
        saved[ObjectIdentifier(entity)]?.byKey[key]
    }

    /// Every entity's saved objects.
    var allHeld: Dictionary<ObjectIdentifier, EntityObjects>.Values { saved.values }

    /// The number of saved objects held, of every entity.
    var heldCount: Int { saved.values.reduce(0) { $0 + $1.byKey.count } }

    /// Forgets every saved object (the objects themselves are the caller's to detach).
    mutating func forgetSaved() {
        saved.removeAll()
    }

    // MARK: Unsaved inserts

    /// Notes a new insert, and its temporary key when references to it must resolve.
    @inline(__always)
    mutating func noteInsert(_ object: ManagedObject, temporaryKey: Int64?) {
        insertedOrder.append(object)
        insertedCount += 1
        if let temporaryKey { byTemporaryKey[temporaryKey] = object }
    }

    /// Notes an object inserted again (an undo brought back a dropped insert, or a deleted
    /// object as a new insert): listed once in insertion order, at the end if it was not listed.
    mutating func noteReinsert(_ object: ManagedObject, temporaryKey: Int64?) {
        if !insertedOrder.contains(where: { $0 === object }) { insertedOrder.append(object) }
        insertedCount += 1
        if let temporaryKey { byTemporaryKey[temporaryKey] = object }
    }

    /// Notes that an insert was deleted before any save (its flag is off, or goes off now).
    mutating func noteInsertDropped(temporaryKey: Int64) {
        insertedCount -= 1
        if !byTemporaryKey.isEmpty { byTemporaryKey[temporaryKey] = nil }
    }

    /// Forgets every insert (after a save, a rollback or a reset).
    mutating func forgetInserts() {
        insertedOrder.removeAll(keepingCapacity: false)
        insertedCount = 0
        byTemporaryKey.removeAll()
    }

    /// Forgets the temporary keys of the inserts (a save made them permanent).
    mutating func forgetTemporaryKeys() {
        byTemporaryKey.removeAll()
    }

    /// Whether any insert is unsaved.
    @inline(__always)
    var hasInserts: Bool { insertedCount > 0 }

    /// The unsaved inserts, in insertion order.
    var insertedObjects: [ManagedObject] {
        insertedOrder.filter(\.insertedFlag)
    }

    /// The unsaved insert with temporary key `key`, if it is still inserted.
    @inline(__always)
    func insertedObject(temporaryKey key: Int64) -> ManagedObject? {
        guard let object = byTemporaryKey[key], object.insertedFlag else { return nil }
        return object
    }

    // MARK: Object ID scopes

    /// The scope of `entity`'s object IDs in the store named `storeIdentifier`.
    @inline(__always)
    mutating func scope(of entity: EntityDescription, storeIdentifier: String) -> ObjectID.Scope {
        scopes.scope(of: entity, storeIdentifier: storeIdentifier)
    }

    /// The entity a scope was made for, if this registry made it or learned it.
    func entity(in scope: ObjectID.Scope) -> EntityDescription? {
        scopes.entity(in: scope)
    }

    /// Remembers that `scope` is `entity`'s.
    mutating func remember(_ entity: EntityDescription, for scope: ObjectID.Scope) {
        scopes.remember(entity, for: scope)
    }
}
