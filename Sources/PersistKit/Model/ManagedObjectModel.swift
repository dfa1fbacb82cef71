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

    /// Builds a model from `ManagedObject` subclasses, reflecting each class once.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel(entities: [TaskItem.self, Project.self])
    /// ```
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
    /// ```swift
    /// let model = try ManagedObjectModel(document: Data(contentsOf: URL(fileURLWithPath: "Schema/TaskModel/1.json")))
    /// let task = ManagedObject(entity: model.entities[0], insertInto: context)
    /// try task.setValue("Buy milk", forKey: "name")
    /// ```
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

    private init(_ entities: [EntityDescription]) throws {
        var byName: [String: EntityDescription] = [:]
        var byLowercasedName: [String: String] = [:]
        var byClass: [ObjectIdentifier: EntityDescription] = [:]
        for entity in entities {
            if let existing = byLowercasedName[entity.name.lowercased()] {
                throw PersistError(.invalidModel,
                    existing == entity.name ? "The model has entity \(entity.name) twice"
                        : "The model has entities \(existing) and \(entity.name), whose names differ only in case (SQLite table names ignore case)",
                    entity: entity.name)
            }
            byLowercasedName[entity.name.lowercased()] = entity.name
            byName[entity.name] = entity
            if entity.isClassBacked { byClass[ObjectIdentifier(entity.objectClass)] = entity }
        }
        self.entities = entities
        entitiesByName = byName
        entitiesByClass = byClass
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
    /// names, types and optionality, and uniqueness constraints (not defaults, not order).
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
        }
        return SHA256.hexDigest(of: Array(canonical.utf8))
    }
}
