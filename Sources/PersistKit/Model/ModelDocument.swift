import Foundation

/// The JSON form of a model: what ``ManagedObjectModel/document`` writes and
/// ``ManagedObjectModel/init(document:version:)`` reads.
struct ModelDocument: Codable {
    static let currentFormatVersion = 1

    struct Entity: Codable {
        var name: String
        var attributes: [Attribute]
        var relationships: [Relationship]
        var uniquenessConstraints: [[String]]
        /// The name in the previous model version, when this version renamed the entity
        /// (absent otherwise, so documents of models without renames keep their bytes).
        var originalName: String?
        /// The entity this one inherits from (absent for entities without a parent, so
        /// documents of models without inheritance keep their bytes).
        var parent: String?
        /// Present, and true, only for an abstract entity.
        var abstract: Bool?
    }

    struct Attribute: Codable {
        var name: String
        var type: AttributeType
        var optional: Bool
        var defaultValue: StoredValue?
        var originalName: String?
        /// For `.externalStorage`: values larger than this many bytes go to files (absent
        /// otherwise, so documents of models without it keep their bytes).
        var externalStorageThreshold: Int?
    }

    /// A relationship: its destination entity, kind, inverse (nil for a one-way one), delete
    /// rule and counts.
    struct Relationship: Codable {
        var name: String
        var destination: String
        var toMany: Bool
        var ordered: Bool?
        var inverse: String?
        var deleteRule: String
        var minimumCount: Int?
        var maximumCount: Int?
        var originalName: String?
    }

    /// A stored value, tagged with its storage class so documents round-trip exactly:
    /// `{"integer": 0}`, `{"real": 1.5}`, `{"text": "x"}`, `{"blob": "<base64>"}`, `{"null": true}`.
    enum StoredValue: Codable, Equatable {
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob(String)
        case null

        private enum Key: String, CodingKey { case integer, real, text, blob, null }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            guard container.allKeys.count == 1, let key = container.allKeys.first else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "A stored value has exactly one of integer, real, text, blob, null"))
            }
            switch key {
            case .integer: self = .integer(try container.decode(Int64.self, forKey: key))
            case .real: self = .real(try container.decode(Double.self, forKey: key))
            case .text: self = .text(try container.decode(String.self, forKey: key))
            case .blob: self = .blob(try container.decode(String.self, forKey: key))
            case .null: self = .null
            }
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            switch self {
            case .integer(let v): try container.encode(v, forKey: .integer)
            case .real(let v): try container.encode(v, forKey: .real)
            case .text(let v): try container.encode(v, forKey: .text)
            case .blob(let v): try container.encode(v, forKey: .blob)
            case .null: try container.encode(true, forKey: .null)
            }
        }

        init(_ value: SQLValue) {
            switch value {
            case .integer(let v): self = .integer(v)
            case .real(let v): self = .real(v)
            case .text(let v): self = .text(v)
            case .blob(let v): self = .blob(v.base64EncodedString())
            case .null: self = .null
            }
        }

        var sqlValue: SQLValue? {
            switch self {
            case .integer(let v): return .integer(v)
            case .real(let v): return .real(v)
            case .text(let v): return .text(v)
            case .blob(let v): return Data(base64Encoded: v).map { .blob($0) }
            case .null: return .null
            }
        }
    }

    var formatVersion: Int
    var entities: [Entity]

    init(_ model: ManagedObjectModel) {
        formatVersion = Self.currentFormatVersion
        entities = model.entities.map { entity in
            Entity(name: entity.name,
                   attributes: entity.attributes.map {
                       Attribute(name: $0.name, type: $0.type, optional: $0.isOptional,
                                 defaultValue: $0.defaultValue.map(StoredValue.init), originalName: $0.originalName,
                                 externalStorageThreshold: $0.externalStorageThreshold)
                   },
                   relationships: entity.relationships.map {
                       Relationship(name: $0.name, destination: $0.destinationEntityName, toMany: $0.kind.isToMany,
                                    ordered: $0.kind == .orderedToMany ? true : nil, inverse: $0.inverseName,
                                    deleteRule: $0.deleteRule.rawValue, minimumCount: $0.minimumCount, maximumCount: $0.maximumCount,
                                    originalName: $0.originalName)
                   },
                   uniquenessConstraints: entity.uniquenessConstraints, originalName: entity.originalName,
                   parent: entity.superentityName, abstract: entity.isAbstract ? true : nil)
        }
    }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Encoding plain structs of strings, numbers and arrays cannot fail; an empty document
        // would be caught by any reader.
        return (try? encoder.encode(self)) ?? Data()
    }
}

extension ModelDocument.Entity {
    func makeEntity() throws -> EntityDescription {
        if let problem = ModelNames.problem(withEntityName: name) {
            throw PersistError(.invalidModel, problem, entity: name)
        }
        if let originalName, let problem = ModelNames.problem(withEntityName: originalName) {
            throw PersistError(.invalidModel, "The original name of \(name): " + problem, entity: name)
        }
        var seen = Set<String>()
        var descriptions: [AttributeDescription] = []
        for attribute in attributes {
            if let problem = ModelNames.problem(withAttributeName: attribute.name) {
                throw PersistError(.invalidModel, problem, entity: name, attribute: attribute.name)
            }
            guard seen.insert(attribute.name.lowercased()).inserted else {
                throw PersistError(.invalidModel, "Entity \(name) has two attributes named \(attribute.name)",
                                   entity: name, attribute: attribute.name)
            }
            var defaultValue: SQLValue?
            if let stored = attribute.defaultValue {
                guard let value = stored.sqlValue else {
                    throw PersistError(.invalidModel, "The default value of \(name).\(attribute.name) is not valid base64",
                                       entity: name, attribute: attribute.name)
                }
                let fits = value.isNull ? attribute.optional
                    : attribute.type.accepts(value) && ModelValueCoding.value(from: value, type: attribute.type) != nil
                guard fits else {
                    throw PersistError(.invalidModel,
                        "The default value of \(name).\(attribute.name) (\(value.storageClassName) \(value)) does not fit its type \(attribute.type.rawValue)",
                        entity: name, attribute: attribute.name)
                }
                defaultValue = value.isNull ? nil : value
            }
            if let threshold = attribute.externalStorageThreshold, threshold < 0 {
                throw PersistError(.invalidModel, "\(name).\(attribute.name) has a negative external storage threshold (\(threshold))",
                                   entity: name, attribute: attribute.name)
            }
            descriptions.append(AttributeDescription(
                name: attribute.name, type: attribute.type, isOptional: attribute.optional,
                defaultValue: defaultValue, index: descriptions.count, valueTypeName: attribute.type.rawValue,
                originalName: attribute.originalName, externalStorageThreshold: attribute.externalStorageThreshold))
        }
        for constraint in uniquenessConstraints {
            for key in constraint where !seen.contains(key.lowercased()) {
                throw PersistError(.invalidModel, "Uniqueness constraint of \(name) names \(key), which is not an attribute",
                                   entity: name, attribute: key)
            }
        }
        var declarations: [RelationshipDeclaration] = []
        for relationship in relationships {
            if let problem = ModelNames.problem(withAttributeName: relationship.name) {
                throw PersistError(.invalidModel, problem, entity: name, attribute: relationship.name)
            }
            guard seen.insert(relationship.name.lowercased()).inserted else {
                throw PersistError(.invalidModel, "Entity \(name) has two properties named \(relationship.name)",
                                   entity: name, attribute: relationship.name)
            }
            guard let rule = DeleteRule(rawValue: relationship.deleteRule) else {
                throw PersistError(.invalidModel, "\(name).\(relationship.name) has an unknown delete rule \(relationship.deleteRule)",
                                   entity: name, attribute: relationship.name)
            }
            let kind: RelationshipKind = !relationship.toMany ? .toOne : relationship.ordered == true ? .orderedToMany : .toMany
            declarations.append(RelationshipDeclaration(
                name: relationship.name, destination: .entityName(relationship.destination), kind: kind,
                inverse: relationship.inverse.map { .name($0) } ?? .none, deleteRule: rule,
                minimumCount: relationship.minimumCount, maximumCount: relationship.maximumCount,
                originalName: relationship.originalName))
        }
        return EntityDescription(name: name, objectClass: ManagedObject.self, isClassBacked: false,
                                 attributes: descriptions, valueTypes: descriptions.map { _ in nil },
                                 uniquenessConstraints: uniquenessConstraints, declaredRelationships: declarations,
                                 originalName: originalName, isAbstract: abstract == true, superentityName: parent)
    }
}
