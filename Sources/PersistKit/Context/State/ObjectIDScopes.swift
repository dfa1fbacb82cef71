/// A context's ``ObjectID/Scope``s, one per entity of its store, so that making an ID per row
/// neither takes the registry's lock nor hashes names; and the way back, from an ID's scope to
/// the entity, for lookups by ID.
///
/// Most work touches one entity at a time: the last entity asked for is answered with one
/// comparison, others with a dictionary lookup, and only an entity's first use interns.
struct ObjectIDScopes {
    private var last: (entity: ObjectIdentifier, scope: ObjectID.Scope)?
    /// Holds the entities, so that an `ObjectIdentifier` here is never reused by another one.
    private var byEntity: [ObjectIdentifier: (entity: EntityDescription, scope: ObjectID.Scope)] = [:]
    /// Entities of this context's model and store, by the scope of their IDs.
    private var byScope: [ObjectID.Scope: EntityDescription] = [:]

    /// The scope of `entity`'s objects in the store `storeIdentifier` (always the context's).
    @inline(__always)
    mutating func scope(of entity: EntityDescription, storeIdentifier: String) -> ObjectID.Scope {
        if let last, last.entity == ObjectIdentifier(entity) { return last.scope }
        return resolve(entity, storeIdentifier: storeIdentifier)
    }

    private mutating func resolve(_ entity: EntityDescription, storeIdentifier: String) -> ObjectID.Scope {
        let key = ObjectIdentifier(entity)
        let scope = byEntity[key]?.scope ?? ObjectID.Scope(entityName: entity.name, storeIdentifier: storeIdentifier)
        byEntity[key] = (entity, scope)
        last = (key, scope)
        return scope
    }

    /// The entity of IDs in `scope`, if one was remembered for it.
    func entity(in scope: ObjectID.Scope) -> EntityDescription? {
        byScope[scope]
    }

    /// Remembers that IDs in `scope` are `entity`'s in this context's store.
    mutating func remember(_ entity: EntityDescription, for scope: ObjectID.Scope) {
        byScope[scope] = entity
    }
}
