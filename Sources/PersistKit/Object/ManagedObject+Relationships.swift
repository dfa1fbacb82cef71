extension ManagedObject {
    /// The object a to-one holds (nil when none, or when the object is in no context: see
    /// ``relatedObjects(forKey:)``, which throws then).
    @usableFromInline
    final func relatedObject(at index: Int) -> ManagedObject? {
        managedObjectContext?.toOneObject(of: self, relationship: index)
    }

    /// The objects a to-many holds, in order for an ordered one.
    @usableFromInline
    final func relatedObjects(at index: Int) -> [ManagedObject] {
        managedObjectContext?.toManyObjects(of: self, relationship: index) ?? []
    }

    /// A to-many property's value (kept while the list is unchanged, so reading it again is cheap).
    @usableFromInline
    final func relatedValue<Value: RelationshipValue>(at index: Int) -> Value {
        managedObjectContext?.toManyValue(of: self, relationship: index) ?? Value.relationshipValue([])
    }

    /// Lets go of a to-many's kept value: the caller's copy changes in place.
    final func releaseRelatedValue(at index: Int) {
        managedObjectContext?.releaseToManyValue(of: self, relationship: index)
    }

    /// Sets a to-many property: only the objects added or removed are linked or unlinked when
    /// that can be told cheaply from what it holds; the context keeps the inverse.
    final func setRelatedValue<Value: RelationshipValue>(_ value: Value, at index: Int) {
        guard let context = managedObjectContext else { return setRelatedObjects(value.relatedObjects, at: index) }
        context.setToMany(of: self, relationship: index, to: value) { held, kept in
            ToManyChange.between(held: held, kept: kept, new: value)
        }
    }

    /// Links or unlinks one object of a relationship (`project.$tasks.insert(task)`); the
    /// context keeps the inverse. In no context, a link is refused as an assignment is.
    final func setLink(_ member: ManagedObject, at index: Int, linked: Bool) {
        guard let context = managedObjectContext else {
            if linked { setRelatedObjects([member], at: index) }
            return
        }
        context.setLink(member, of: self, relationship: index, linked: linked)
    }

    /// Sets a to-one to `target` (or nil), as `setRelatedObjects` with at most one object.
    final func setRelatedObject(_ target: ManagedObject?, at index: Int) {
        guard let context = managedObjectContext else { return setRelatedObjects(target.map { [$0] } ?? [], at: index) }
        context.setToOneRelationship(of: self, relationship: index, to: target)
    }

    /// Sets a relationship (at most one object for a to-one); the context keeps the inverse.
    /// An assignment the context refuses leaves the graph unchanged and fails the next save.
    @usableFromInline
    final func setRelatedObjects(_ objects: [ManagedObject], at index: Int) {
        guard let context = managedObjectContext else {
            guard index < entity.relationships.count else { return }
            if related == nil { related = RelatedObjects() }
            related?.problems[index] = "\(entity.name).\(entity.relationships[index].name) was set on an object that is in no context"
            // Kept for a batch insert's fill closure, which takes to-ones to saved objects.
            related?.detached[index] = objects
            return
        }
        context.setRelationship(of: self, relationship: index, to: objects)
    }

    /// The objects a relationship holds, by name, for objects of any entity (including
    /// entities loaded from a model document, which have no class).
    ///
    /// ```swift
    /// let tasks = try project.relatedObjects(forKey: "tasks")
    /// ```
    /// - Throws: ``PersistError`` `.unknownKey` when the entity has no such relationship,
    ///   `.misuse` naming the object when it is in no context (its context was reset, its
    ///   deletion was saved, or it was never inserted): a relationship is read through the
    ///   object's context, and the property reads as empty then. (An object whose context was
    ///   freed is in the successor its context handed it to, and reads.)
    public func relatedObjects(forKey key: String) throws -> [ManagedObject] {
        guard let relationship = entity.relationship(named: key) else {
            throw PersistError(.unknownKey, "\(entity.name) has no relationship named \(key)",
                               entity: entity.name, attribute: key, objectIDs: [objectID])
        }
        guard managedObjectContext != nil else {
            throw PersistError(.misuse, "\(entity.name).\(key) of \(objectID) cannot be read: the object is in no context (its "
                + "context was reset, its deletion was saved, or it was never inserted), and relationships are "
                + "read through the context. Fetch the object again in a live context: context.object(with: id)",
                entity: entity.name, attribute: key, objectIDs: [objectID])
        }
        noteRelationshipRead(relationship.index)
        if relationship.kind == .toOne { return relatedObject(at: relationship.index).map { [$0] } ?? [] }
        return relatedObjects(at: relationship.index)
    }

    /// Sets a relationship by name (at most one object for a to-one), keeping its inverse.
    ///
    /// ```swift
    /// try task.setRelatedObjects([home], forKey: "project")
    /// ```
    /// - Throws: ``PersistError`` `.unknownKey` for an unknown relationship, `.invalidRequest` for
    ///   several objects given to a to-one or an object of another entity. Other misuse (an
    ///   object of another context, a deleted one) fails the next save, as with the properties.
    public func setRelatedObjects(_ objects: [ManagedObject], forKey key: String) throws {
        guard let relationship = entity.relationship(named: key) else {
            throw PersistError(.unknownKey, "\(entity.name) has no relationship named \(key)",
                               entity: entity.name, attribute: key, objectIDs: [objectID])
        }
        if relationship.kind == .toOne && objects.count > 1 {
            throw PersistError(.invalidRequest, "\(entity.name).\(key) is a to-one: it cannot hold \(objects.count) objects",
                               entity: entity.name, attribute: key, objectIDs: [objectID])
        }
        if let stranger = objects.first(where: { !$0.entity.isKind(of: relationship.destinationEntityName) }) {
            throw PersistError(.invalidRequest,
                "\(entity.name).\(key) holds \(relationship.destinationEntityName) objects, not \(stranger.entity.name)",
                entity: entity.name, attribute: key, objectIDs: [objectID, stranger.objectID])
        }
        setRelatedObjects(objects, at: relationship.index)
    }
}
