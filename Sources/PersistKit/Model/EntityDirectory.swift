import Synchronization

/// The entities of the model an entity belongs to, by name, so that a relationship's
/// destination can be found from the entity alone (predicates and sorts follow key paths
/// through relationships before any context is involved).
///
/// Held weakly: the model holds its entities, and an entity must not keep its model alive.
/// Entities reflected from a class alone have an empty directory; their destinations are
/// reflected from the declared classes instead (see ``EntityDescription/destinationEntity(of:)``).
final class EntityDirectory: Sendable {
    private struct WeakEntity: Sendable {
        weak var entity: EntityDescription?
    }

    private let entries = Mutex<[String: WeakEntity]>([:])

    /// Records the model's entities (once, when the model is made).
    func fill(_ entities: [EntityDescription]) {
        entries.withLock { entries in
            for entity in entities { entries[entity.name] = WeakEntity(entity: entity) }
        }
    }

    /// The model's entity named `name`, if the model is alive and has one.
    func entity(named name: String) -> EntityDescription? {
        entries.withLock { $0[name]?.entity }
    }
}

extension EntityDescription {
    /// The entity a relationship points at: the model's when the entity belongs to one, else the
    /// entity reflected from the declared class. Nil when neither is known.
    func destinationEntity(of relationship: RelationshipDescription) -> EntityDescription? {
        if let entity = directory.entity(named: relationship.destinationEntityName) { return entity }
        guard relationship.index < declaredRelationships.count,
              case .objectClass(let objectClass) = declaredRelationships[relationship.index].destination,
              case .success(let entity) = EntityReflection.entity(for: objectClass) else { return nil }
        return entity
    }
}
