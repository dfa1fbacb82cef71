import Foundation

/// The entities an application stores, described once and checked at creation.
///
/// ```swift
/// let model = try ManagedObjectModel(entities: [TaskItem.self, Project.self])
/// model.document        // the model document (JSON), for committing and comparing
/// model.versionHash     // changes when the stored schema would change
/// ```
public final class ManagedObjectModel: Sendable {
    /// The entities, in the order given.
    public let entities: [EntityDescription]
    private let entitiesByName: [String: EntityDescription]
    private let entitiesByClass: [ObjectIdentifier: EntityDescription]
    /// Whether any entity has a relationship (saves then map temporary keys to new ones).
    let hasRelationships: Bool

    /// Builds a model from `ManagedObject` subclasses, reflecting each class once.
    ///
    /// - Throws: ``PersistError`` with code `.invalidModel` for a duplicate entity (names are
    ///   compared without case, as SQLite does), a name SQLite cannot take or PersistKit
    ///   reserves, or an attribute whose initial value cannot be encoded.
    public convenience init(entities classes: [ManagedObject.Type]) throws {
        var described: [EntityDescription] = []
        for objectClass in classes {
            switch EntityReflection.entity(for: objectClass) {
            case .success(let entity): described.append(entity)
            case .failure(let error): throw error
            }
        }
        try self.init(described)
    }

    /// Loads a model from a model document made by ``document``. Its objects are plain
    /// ``ManagedObject``s, read and written with `value(forKey:)` and `setValue(_:forKey:)`.
    ///
    /// - Throws: ``PersistError`` with code `.invalidModel` when the document cannot be read.
    public convenience init(document: Data) throws {
        let decoded: ModelDocument
        do {
            decoded = try JSONDecoder().decode(ModelDocument.self, from: document)
        } catch {
            throw PersistError(.invalidModel, "The model document cannot be read: \(error)")
        }
        guard decoded.formatVersion == ModelDocument.currentFormatVersion else {
            throw PersistError(.invalidModel,
                "The model document has format version \(decoded.formatVersion); this PersistKit reads version \(ModelDocument.currentFormatVersion)")
        }
        try self.init(decoded.entities.map { try $0.makeEntity() })
    }

    private init(_ declared: [EntityDescription]) throws {
        try Self.checkNames(declared)
        let entities = try RelationshipResolver.resolve(declared)
        var byName: [String: EntityDescription] = [:]
        var byClass: [ObjectIdentifier: EntityDescription] = [:]
        for entity in entities {
            byName[entity.name] = entity
            if entity.isClassBacked { byClass[ObjectIdentifier(entity.objectClass)] = entity }
        }
        self.entities = entities
        // Entities with relationships are this model's own (resolved) instances: they can name
        // their destinations. Others may be shared reflections: they need no directory.
        for entity in entities where !entity.relationships.isEmpty { entity.directory.fill(entities) }
        hasRelationships = entities.contains { !$0.relationships.isEmpty }
        entitiesByName = byName
        entitiesByClass = byClass
    }

    private static func checkNames(_ entities: [EntityDescription]) throws {
        var byLowercasedName: [String: String] = [:]
        for entity in entities {
            if let existing = byLowercasedName[entity.name.lowercased()] {
                throw PersistError(.invalidModel,
                    existing == entity.name ? "The model has entity \(entity.name) twice"
                        : "The model has entities \(existing) and \(entity.name), whose names differ only in case (SQLite table names ignore case)",
                    entity: entity.name)
            }
            byLowercasedName[entity.name.lowercased()] = entity.name
        }
    }

    /// The entity named `name`.
    public func entity(named name: String) -> EntityDescription? { entitiesByName[name] }

    /// The entity whose class is `objectClass`.
    public func entity(for objectClass: ManagedObject.Type) -> EntityDescription? {
        entitiesByClass[ObjectIdentifier(objectClass)]
    }

    /// The model document: JSON, pretty-printed, keys sorted, entities and attributes in
    /// declaration order. Commit it (TaskModel keeps `Schema/TaskModel/1.json`) so a test can
    /// tell when the code's model changed.
    public var document: Data {
        ModelDocument(self).encoded()
    }

    /// A SHA-256 hash, in hex, of what the stored schema depends on: entity names, attribute
    /// names, types and optionality, uniqueness constraints, and relationships (names, kinds,
    /// destinations, inverses); not defaults, delete rules or order.
    /// A store remembers the hash of the model that wrote it.
    public var versionHash: String {
        var canonical = ""
        for entity in entities.sorted(by: { $0.name < $1.name }) {
            canonical += "entity \(entity.name)\n"
            for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) {
                canonical += "  \(attribute.name) \(attribute.type.rawValue)\(attribute.isOptional ? "?" : "")\n"
            }
            for constraint in entity.uniquenessConstraints.map({ $0.sorted() }).sorted(by: { $0.joined(separator: ",") < $1.joined(separator: ",") }) {
                canonical += "  unique \(constraint.joined(separator: ","))\n"
            }
            // Only models with relationships hash them: a relationship-free model keeps the hash
            // its stores were written with.
            for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) {
                canonical += "  relationship \(relationship.name) \(relationship.kind.rawValue) \(relationship.destinationEntityName)"
                    + " inverse \(relationship.inverseName ?? "-")\n"
            }
        }
        return SHA256.hexDigest(of: Array(canonical.utf8))
    }
}
