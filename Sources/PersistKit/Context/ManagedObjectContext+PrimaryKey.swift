extension ManagedObjectContext {
    /// The object of class `type` whose primary key is `primaryKey`: what
    /// ``ObjectID/primaryKey`` returns, and what an app may show as a stable reference (`#12`).
    ///
    /// ```swift
    /// let task = try context.existingObject(TaskItem.self, primaryKey: 12)
    /// ```
    /// For an entity with sub-entities the object may be of any of them (the entities of an
    /// inheritance tree share their keys): `existingObject(Animal.self, primaryKey: 3)` returns
    /// the `Dog` whose key is 3.
    ///
    /// - Throws: ``PersistError`` `.objectNotFound` when there is none (or it is deleted),
    ///   `.invalidRequest` when `type` is not an entity of the model.
    public func existingObject<T: ManagedObject>(_ type: T.Type, primaryKey: Int64) throws -> T {
        guard var entity = model.entity(for: type) else {
            throw PersistError(.invalidRequest, "\(type) is not an entity of this context's model")
        }
        if entity.readsSubentities, let names = entity.inheritance?.concreteEntityNames {
            let candidates = names.compactMap(model.entity(named:))
            if let registered = candidates.first(where: { registry.object(of: $0, key: primaryKey) != nil }) {
                entity = registered
            } else if let stored = try store.entityName(ofKey: primaryKey, in: entity),
                      let found = candidates.first(where: { $0.name == stored }) {
                entity = found
            }
        }
        let id = savedObjectID(entity, key: primaryKey)
        let object = try existingObject(with: id)
        guard !object.isDeleted, let typed = object as? T else {
            throw PersistError(.objectNotFound, "\(entity.name) \(primaryKey) is deleted", entity: entity.name, objectIDs: [id])
        }
        return typed
    }
}
