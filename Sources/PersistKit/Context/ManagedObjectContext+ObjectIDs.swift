extension ManagedObjectContext {
    /// The scope of `entity`'s object IDs in this context's store: make IDs in it rather than
    /// by name, which takes the process-wide registry's lock.
    @inline(__always)
    func objectIDScope(of entity: EntityDescription) -> ObjectID.Scope {
        registry.scope(of: entity, storeIdentifier: store.identifier)
    }

    /// The ID of `entity`'s saved row `key` in this context's store.
    @inline(__always)
    func savedObjectID(_ entity: EntityDescription, key: Int64) -> ObjectID {
        objectIDScope(of: entity).savedID(key)
    }

    /// The entity of `objectID` in this context's model, after checking that the ID is of
    /// this context's store.
    ///
    /// - Throws: `.objectNotFound` when the model has no such entity or the ID is another store's.
    func entity(of objectID: ObjectID) throws -> EntityDescription {
        if let entity = registry.entity(in: objectID.scope) { return entity }
        let names = objectID.scope.names
        guard let entity = model.entity(named: names.entityName) else {
            throw PersistError(.objectNotFound, "The model has no entity \(names.entityName)", objectIDs: [objectID])
        }
        guard names.storeIdentifier == store.identifier else {
            throw PersistError(.objectNotFound, "The object belongs to another store", entity: entity.name, objectIDs: [objectID])
        }
        registry.remember(entity, for: objectID.scope)
        return entity
    }
}
