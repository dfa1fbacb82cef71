import PersistKitText
import Foundation

/// A sort descriptor resolved against an entity: the slot to read and how to compare.
struct ResolvedSort: Sendable {
    /// The object's storage slot to read; `Int.max` when the sort reads through relationships
    /// (readers of storage then see nil: use ``value(of:)``).
    let slot: Int
    /// The attribute's name, or the key path (`project.name`).
    let name: String
    let ascending: Bool
    let nilsFirst: Bool
    let collation: TextCollation
    /// The to-ones followed before the attribute (`project`, `owner`); empty for the object's own.
    let hops: [PredicateKey.Hop]
    /// The attribute's slot in the entity the hops end at.
    let targetSlot: Int

    init<Root>(_ descriptor: FetchSortDescriptor<Root>, entity: EntityDescription) throws {
        if let error = descriptor.error { throw error }
        ascending = descriptor.isAscending
        nilsFirst = descriptor.nils == .first
        collation = descriptor.comparison.collation
        name = descriptor.key
        if !PredicateKey.isPath(descriptor.key), let attribute = entity.attribute(named: descriptor.key) {
            try Self.checkSortable(attribute, entity: entity, key: descriptor.key)
            slot = attribute.index
            targetSlot = attribute.index
            hops = []
            return
        }
        if let (owner, toMany) = PredicateKey.firstToMany(in: descriptor.key, of: entity) {
            // ANY, @count and SUBQUERY, which a predicate would take, do not give one value per object.
            throw PersistError(.invalidRequest,
                "Cannot sort \(entity.name) by \(descriptor.key): \(owner.name).\(toMany.name) is a to-many relationship, whose "
                + "objects give no one value to sort by. Sort by an attribute of \(entity.name) or of a to-one (as "
                + "\(Self.toOneExample(in: entity))); to order by what a to-many holds, keep it in an attribute (its count, "
                + "its first name) and sort by that",
                entity: entity.name, attribute: descriptor.key)
        }
        let resolved: PredicateKey.Resolved
        do {
            resolved = try PredicateKey.resolve(descriptor.key, in: entity)
        } catch let error as PersistError {
            throw PersistError(.invalidRequest, "Cannot sort \(entity.name) by \(descriptor.key): " + error.message,
                               entity: entity.name, attribute: descriptor.key)
        }
        guard case .attribute(let attribute) = resolved.target, !resolved.hops.isEmpty else {
            throw PersistError(.invalidRequest,
                "Cannot sort \(entity.name) by \(descriptor.key): it is a relationship, not an attribute (sort by one of its attributes, as \(descriptor.key).name)",
                entity: entity.name, attribute: descriptor.key)
        }
        try Self.checkSortable(attribute, entity: entity, key: descriptor.key)
        slot = Int.max
        targetSlot = attribute.index
        hops = resolved.hops
    }

    /// Refuses an `.externalStorage` attribute: a value kept in a file is not in the row to
    /// compare, so neither SQL nor memory could order by it.
    private static func checkSortable(_ attribute: AttributeDescription, entity: EntityDescription, key: String) throws {
        guard attribute.allowsExternalStorage else { return }
        throw PersistError(.invalidRequest,
            "Cannot sort \(entity.name) by \(key): \(attribute.name) is stored externally (.externalStorage), so its large values are "
            + "in files, not in the rows to compare; sort by an attribute that describes it (its size, its name)",
            entity: entity.name, attribute: key)
    }

    /// A key through one of `entity`'s to-ones (`project.name`), to show what can be sorted by.
    private static func toOneExample(in entity: EntityDescription) -> String {
        for relationship in entity.relationships where relationship.kind == .toOne {
            if let destination = entity.destinationEntity(of: relationship), let attribute = destination.attributes.first {
                return relationship.name + "." + attribute.name
            }
        }
        return "project.name"
    }

    /// The value the sort reads from an object: its attribute, or through its to-ones (nil when
    /// one on the way is nil), in its context's current state.
    @inline(__always)
    func value(of object: ManagedObject) -> SQLValue {
        guard !hops.isEmpty else { return object.storage[slot] }
        var current = object
        for hop in hops {
            guard let next = current.relatedObject(at: hop.relationship.index) else { return .null }
            current = next
        }
        return targetSlot < current.storage.count ? current.storage[targetSlot] : .null
    }

    /// Compares two stored values as the SQL clause orders them.
    @inline(__always)
    func compare(_ a: SQLValue, _ b: SQLValue) -> Int {
        switch (a.isNull, b.isNull) {
        case (true, true): return 0
        case (true, false): return nilsFirst ? -1 : 1
        case (false, true): return nilsFirst ? 1 : -1
        case (false, false):
            let order = SQLValue.compare(a, b, collation: collation)
            return ascending ? order : -order
        }
    }
}
