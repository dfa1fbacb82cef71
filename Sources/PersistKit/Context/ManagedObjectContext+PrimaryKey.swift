extension ManagedObjectContext {
    /// The object of class `type` whose primary key is `primaryKey`: what
    /// ``ObjectID/primaryKey`` returns, and what an app may show as a stable reference (`#12`).
    ///
    /// ```swift
    /// let task = try context.existingObject(TaskItem.self, primaryKey: 12)
    /// ```
    /// - Throws: ``PersistError`` `.objectNotFound` when there is none (or it is deleted),
    ///   `.invalidRequest` when `type` is not an entity of the model.
    public func existingObject<T: ManagedObject>(_ type: T.Type, primaryKey: Int64) throws -> T {
        guard let entity = model.entity(for: type) else {
            throw PersistError(.invalidRequest, "\(type) is not an entity of this context's model")
        }
        let id = savedObjectID(entity, key: primaryKey)
        let object = try existingObject(with: id)
        guard !object.isDeleted, let typed = object as? T else {
            throw PersistError(.objectNotFound, "\(entity.name) \(primaryKey) is deleted", entity: entity.name, objectIDs: [id])
        }
        return typed
    }
}
