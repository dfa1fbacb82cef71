import Foundation

/// One object as the server keeps it and as pushes and pulls carry it: its global ID, its
/// entity, its keys' values, the clock reading of each key's value, and whether (and when) it
/// was deleted or merged into another object.
///
/// A link of a to-many kept in a join table is a record too, of the entity
/// `"<Owner>.<relationship>"`, with the ID `"<owner ID>><relationship>><target ID>"`: both stores adding the
/// same link reach the same record, and its `present` key settles an add against a remove.
struct SyncRecord: Sendable, Hashable, Codable {
    /// The object's global ID: a UUID (``GlobalID``), name-based on the store that made it and
    /// its key there, so that a push tried again names the same objects.
    var id: String
    var entity: String
    var fields: [String: SyncValue]
    /// Each key's clock reading (text form of ``HybridTimestamp``).
    var clocks: [String: String]
    /// The reading of the deletion, when the object is deleted.
    var deleted: String?
    /// The object this one was merged into (a uniqueness collision), when it was.
    var mergedInto: String?

    init(id: String, entity: String, fields: [String: SyncValue] = [:], clocks: [String: String] = [:],
         deleted: String? = nil, mergedInto: String? = nil) {
        self.id = id
        self.entity = entity
        self.fields = fields
        self.clocks = clocks
        self.deleted = deleted
        self.mergedInto = mergedInto
    }

    /// The newest clock reading of any key.
    var newestClock: String? { clocks.values.max() }

    /// The ID of a link record.
    static func linkID(owner: String, relationship: String, target: String) -> String { owner + ">" + relationship + ">" + target }

    /// The relationship of a link record of `entity` (`"<Owner>.<relationship>"`).
    static func relationship(ofLinkEntity entity: String) -> String {
        entity.firstIndex(of: ".").map { String(entity[entity.index(after: $0)...]) } ?? entity
    }

    /// The entity name of the link records of `relationship` of `owner`.
    static func linkEntity(owner: String, relationship: String) -> String { owner + "." + relationship }

    /// A link's `owner` and `target` keys, `present` (1 or 0) and `position` (an order key, for
    /// an ordered relationship).
    static let ownerKey = "owner", targetKey = "target", presentKey = "present", positionKey = "position"

    /// The key of an object's place in its to-one's ordered inverse: `"<to-one>.order"`.
    static func orderKey(of relationship: String) -> String { relationship + ".order" }
}
