import Foundation

/// The entities an application stores, described once and checked at creation.
///
/// ```swift
/// let model = try ManagedObjectModel(entities: [TaskItem.self, Project.self], version: 2)
/// model.document        // the model document (JSON), for committing and comparing
/// model.versionHash     // changes when the stored schema would change
/// ```
public final class ManagedObjectModel: Sendable {
    /// The entities, in the order given.
    public let entities: [EntityDescription]
    /// The model's version: 1 for the first release, one more for each release that changed
    /// it. A store remembers the version that wrote it; a store of an older version is
    /// migrated when opened with a ``MigrationPlan`` (see <doc:MigratingAModel>).
    public let version: Int
    private let entitiesByName: [String: EntityDescription]
    private let entitiesByClass: [ObjectIdentifier: EntityDescription]
    /// Whether any entity has a relationship (saves then map temporary keys to new ones).
    let hasRelationships: Bool

    /// Builds a model from `ManagedObject` subclasses, reflecting each class once.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel(entities: [TaskItem.self, Project.self], version: 2)
    /// ```
    ///
    /// - Parameters:
    ///   - classes: The entities' classes.
    ///   - version: The model's version (1 when not given), at least 1.
    /// - Throws: ``PersistError`` with code `.invalidModel` for a duplicate entity (names are
    ///   compared without case, as SQLite does), a name SQLite cannot take or PersistKit
    ///   reserves, an attribute whose initial value cannot be encoded, or a version below 1.
    public convenience init(entities classes: [ManagedObject.Type], version: Int = 1) throws {
        var described: [EntityDescription] = []
        for objectClass in classes {
            switch EntityReflection.entity(for: objectClass) {
            case .success(let entity): described.append(entity)
            case .failure(let error): throw error
            }
        }
        try self.init(described, version: version)
    }

    /// Loads a model from a model document made by ``document``. Its objects are plain
    /// ``ManagedObject``s, read and written with `value(forKey:)` and `setValue(_:forKey:)`.
    ///
    /// ```swift
    /// let version1 = try ManagedObjectModel(document: Data(contentsOf: schema.appendingPathComponent("1.json")), version: 1)
    /// ```
    ///
    /// - Parameters:
    ///   - document: The JSON of a model document.
    ///   - version: The version the document describes (1 when not given): a document does not
    ///     record it; the file it is committed as (`Schema/<Model>/<version>.json`) does.
    /// - Throws: ``PersistError`` with code `.invalidModel` when the document cannot be read.
    public convenience init(document: Data, version: Int = 1) throws {
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
        try self.init(decoded.entities.map { try $0.makeEntity() }, version: version)
    }

    private init(_ declared: [EntityDescription], version: Int) throws {
        guard version >= 1 else {
            throw PersistError(.invalidModel, "A model version is 1 or more, not \(version)")
        }
        self.version = version
        try Self.checkNames(declared)
        try ExternalStorage.checkModel(declared)
        let entities = try RelationshipResolver.resolve(try EntityInheritance.place(declared))
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
        var originals: [String: String] = [:]
        for entity in entities {
            guard let original = entity.originalName else { continue }
            if let problem = ModelNames.problem(withEntityName: original) {
                throw PersistError(.invalidModel, "The original name of \(entity.name): " + problem, entity: entity.name)
            }
            if let other = originals[original.lowercased()] {
                throw PersistError(.invalidModel, "Entities \(other) and \(entity.name) both say they were \(original) before",
                                   entity: entity.name)
            }
            originals[original.lowercased()] = entity.name
        }
    }

    /// The entity named `name`.
    ///
    /// ```swift
    /// model.entity(named: "Task")?.attributeNames    // ["name", "notes", "due", "isComplete"]
    /// ```
    public func entity(named name: String) -> EntityDescription? { entitiesByName[name] }

    /// The entity whose class is `objectClass`.
    ///
    /// ```swift
    /// model.entity(for: TaskItem.self)?.name          // "Task"
    /// ```
    public func entity(for objectClass: ManagedObject.Type) -> EntityDescription? {
        entitiesByClass[ObjectIdentifier(objectClass)]
    }

    /// The model document: JSON, pretty-printed, keys sorted, entities and attributes in
    /// declaration order. Commit it (TaskModel keeps `Schema/TaskModel/1.json`) so a test can
    /// tell when the code's model changed.
    ///
    /// ```swift
    /// try model.document.write(to: URL(fileURLWithPath: "Schema/TaskModel/1.json"))
    /// ```
    public var document: Data {
        ModelDocument(self).encoded()
    }

    /// A SHA-256 hash, in hex, of what the stored schema depends on: entity names, attribute
    /// names, types, optionality and external storage (not its threshold), uniqueness
    /// constraints, relationships (names, kinds, destinations, inverses), each entity's parent
    /// and whether it is abstract; not defaults,
    /// delete rules or order.
    /// A store remembers the hash of the model that wrote it.
    public var versionHash: String {
        var canonical = ""
        for entity in entities.sorted(by: { $0.name < $1.name }) {
            canonical += "entity \(entity.name)\n"
            // Only entities in inheritance trees say so: other models keep their stores' hash.
            if let parent = entity.superentityName { canonical += "  parent \(parent)\n" }
            if entity.isAbstract { canonical += "  abstract\n" }
            for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) {
                // Only externally stored attributes say so: other models keep their stores' hash.
                canonical += "  \(attribute.name) \(attribute.type.rawValue)\(attribute.isOptional ? "?" : "")"
                    + (attribute.allowsExternalStorage ? " external\n" : "\n")
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
