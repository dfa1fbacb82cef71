import Foundation
import PersistKit

/// What of a model syncs: its entities (less those a configuration leaves out), and for each
/// the keys a record carries and where the store keeps them.
struct SyncSchema: Sendable {
    /// A synced entity.
    struct Entity: Sendable {
        let name: String
        let description: EntityDescription
        let layout: StoredEntityLayout
        let attributes: [AttributeDescription]
        /// To-ones to synced entities: the key (and column) and the destination; `ordered` names
        /// the destination's ordered list this object has a place in, when there is one.
        let toOnes: [ToOne]
        /// The to-manys this entity's join tables keep (to synced entities).
        let links: [Link]
        /// Uniqueness constraints, as attribute names.
        let uniqueness: [[String]]
        /// The constrained attributes whose values match without regard to case.
        let uniqueIgnoringCase: Set<String>
    }

    struct ToOne: Sendable {
        let name: String
        let destination: String
        /// The position column of this object in the destination's ordered inverse, if any.
        let positionColumn: String?
        /// The destination's ordered inverse, if any.
        let orderedInverse: String?
    }

    /// A to-many kept in a join table, owned by ``owner``.
    struct Link: Sendable {
        let owner: String
        let relationship: String
        let destination: String
        let table: String
        let isOrdered: Bool
        /// The record entity of its links.
        var entity: String { SyncRecord.linkEntity(owner: owner, relationship: relationship) }
    }

    let entities: [String: Entity]
    /// Link record entities by name.
    let links: [String: Link]
    /// The entity names in the model's order.
    let order: [String]

    init(model: ManagedObjectModel, excluding excluded: Set<String>, ignoringCase: [String: Set<String>] = [:]) {
        var entities: [String: Entity] = [:]
        var links: [String: Link] = [:]
        var order: [String] = []
        let synced = Set(model.entities.map(\.name)).subtracting(excluded)
        for entity in model.entities where synced.contains(entity.name) {
            let layout = StoredEntityLayout(entity)
            var toOnes: [ToOne] = []
            for stored in layout.toOnes {
                guard let relationship = entity.relationship(named: stored.relationship),
                      synced.contains(relationship.destinationEntityName) else { continue }
                let inverse = relationship.inverseName.flatMap { model.entity(named: relationship.destinationEntityName)?.relationship(named: $0) }
                toOnes.append(ToOne(name: relationship.name, destination: relationship.destinationEntityName,
                                    positionColumn: stored.positionColumn,
                                    orderedInverse: inverse?.kind == .orderedToMany ? inverse?.name : nil))
            }
            var entityLinks: [Link] = []
            for join in layout.joinTables {
                guard let relationship = entity.relationship(named: join.relationship),
                      synced.contains(relationship.destinationEntityName) else { continue }
                let link = Link(owner: entity.name, relationship: relationship.name, destination: relationship.destinationEntityName,
                                table: join.table, isOrdered: join.isOrdered)
                entityLinks.append(link)
                links[link.entity] = link
            }
            entities[entity.name] = Entity(name: entity.name, description: entity, layout: layout, attributes: entity.attributes,
                                           toOnes: toOnes, links: entityLinks, uniqueness: entity.uniquenessConstraints,
                                           uniqueIgnoringCase: ignoringCase[entity.name] ?? [])
            order.append(entity.name)
        }
        self.entities = entities
        self.links = links
        self.order = order
    }

    /// The first synced attribute (in the model's order) whose large values the store keeps in
    /// files (`.externalStorage`): its column holds the file's name, not the bytes, so it
    /// cannot sync as a key.
    var externallyStoredAttribute: (entity: String, attribute: String)? {
        for name in order {
            if let attribute = entities[name]?.attributes.first(where: \.allowsExternalStorage) { return (name, attribute.name) }
        }
        return nil
    }

    /// The first synced entity (in the model's order) in an inheritance tree: its rows share
    /// their tree's table, which sync does not read yet.
    var inheritingEntity: String? {
        order.first { entities[$0]?.description.superentityName != nil || entities[$0]?.description.subentityNames.isEmpty == false }
    }

    /// The link of a to-many of `entity` named `relationship`, on either side of its join table.
    func link(of entity: String, named relationship: String) -> (link: Link, isOwner: Bool)? {
        if let owned = entities[entity]?.links.first(where: { $0.relationship == relationship }) { return (owned, true) }
        guard let description = entities[entity]?.description.relationship(named: relationship),
              let inverse = description.inverseName else { return nil }
        let candidate = SyncRecord.linkEntity(owner: description.destinationEntityName, relationship: inverse)
        return links[candidate].map { ($0, false) }
    }
}
