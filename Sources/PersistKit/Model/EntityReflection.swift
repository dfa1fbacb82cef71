import Foundation

/// Builds entity descriptions from `ManagedObject` subclasses, once per class per process.
enum EntityReflection {
    private static let cache = ReflectionCache()

    /// The entity description of a class: reflected the first time, cached after.
    static func entity(for objectClass: ManagedObject.Type) -> Result<EntityDescription, PersistError> {
        cache.entity(for: objectClass) { reflect(objectClass) }
    }

    /// The `@Attribute` wrappers of an object, superclass's first, each class's in declaration order.
    static func attributeWrappers(of object: ManagedObject) -> [(label: String, wrapper: AttributeWrapper)] {
        var mirrors: [Mirror] = []
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            mirrors.append(current)
            mirror = current.superclassMirror
        }
        var result: [(String, AttributeWrapper)] = []
        for current in mirrors.reversed() {
            for child in current.children {
                if let label = child.label, let wrapper = child.value as? AttributeWrapper {
                    result.append((label, wrapper))
                }
            }
        }
        return result
    }

    /// The `@Relationship` wrappers of an object, in the same order as its attributes'.
    static func relationshipWrappers(of object: ManagedObject) -> [(label: String, wrapper: RelationshipWrapper)] {
        var mirrors: [Mirror] = []
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            mirrors.append(current)
            mirror = current.superclassMirror
        }
        var result: [(String, RelationshipWrapper)] = []
        for current in mirrors.reversed() {
            for child in current.children {
                if let label = child.label, let wrapper = child.value as? RelationshipWrapper {
                    result.append((label, wrapper))
                }
            }
        }
        return result
    }

    private static func reflect(_ objectClass: ManagedObject.Type) -> Result<EntityDescription, PersistError> {
        do {
            return .success(try describe(objectClass))
        } catch let error as PersistError {
            return .failure(error)
        } catch {
            return .failure(PersistError(.invalidModel, "\(error)", entity: objectClass.entityName))
        }
    }

    private static func describe(_ objectClass: ManagedObject.Type) throws -> EntityDescription {
        let name = objectClass.entityName
        if let problem = ModelNames.problem(withEntityName: name) {
            throw PersistError(.invalidModel, problem, entity: name)
        }
        // The probe is made with a bare entity first: its wrappers are what describe the entity.
        let bare = EntityDescription(name: name, objectClass: objectClass, isClassBacked: true,
                                     attributes: [], valueTypes: [], uniquenessConstraints: [])
        let probe = objectClass.init(entity: bare, insertInto: nil)
        var attributes: [AttributeDescription] = []
        var valueTypes: [(any AttributeValue.Type)?] = []
        var seen = Set<String>()
        var uniqueAttributes: [String] = []
        for (label, wrapper) in attributeWrappers(of: probe) {
            let attributeName = label.hasPrefix("_") ? String(label.dropFirst()) : label
            if let problem = ModelNames.problem(withAttributeName: attributeName) {
                throw PersistError(.invalidModel, problem, entity: name, attribute: attributeName)
            }
            guard seen.insert(attributeName.lowercased()).inserted else {
                throw PersistError(.invalidModel, "Entity \(name) has two attributes named \(attributeName) (SQLite names ignore case)",
                                   entity: name, attribute: attributeName)
            }
            let (attribute, isUnique) = try describeAttribute(attributeName, wrapper, entity: name, index: attributes.count)
            if isUnique { uniqueAttributes.append(attributeName) }
            attributes.append(attribute)
            valueTypes.append(type(of: wrapper).valueType)
        }
        let constraints = try uniquenessConstraints(objectClass.uniquenessConstraints, unique: uniqueAttributes,
                                                    entity: name, attributes: attributes)
        var relationships: [RelationshipDeclaration] = []
        for (label, wrapper) in relationshipWrappers(of: probe) {
            let relationshipName = label.hasPrefix("_") ? String(label.dropFirst()) : label
            if let problem = ModelNames.problem(withAttributeName: relationshipName) {
                throw PersistError(.invalidModel, problem.replacingOccurrences(of: "Attribute name", with: "Relationship name"),
                                   entity: name, attribute: relationshipName)
            }
            guard seen.insert(relationshipName.lowercased()).inserted else {
                throw PersistError(.invalidModel,
                    "Entity \(name) has two properties named \(relationshipName) (SQLite names ignore case)",
                    entity: name, attribute: relationshipName)
            }
            relationships.append(wrapper.declaration(named: relationshipName))
        }
        // The superclasses a model may make this entity's parent, nearest first; only the class
        // that says `isAbstractEntity` itself is abstract (its subclasses inherit the property).
        var superclasses: [ObjectIdentifier] = []
        var superclassMirror = Mirror(reflecting: probe).superclassMirror
        let directSuperclass = superclassMirror?.subjectType as? ManagedObject.Type
        while let current = superclassMirror, let superclass = current.subjectType as? ManagedObject.Type,
              superclass != ManagedObject.self {
            superclasses.append(ObjectIdentifier(superclass))
            superclassMirror = current.superclassMirror
        }
        let isAbstract = objectClass.isAbstractEntity && directSuperclass?.isAbstractEntity != true
        let entity = EntityDescription(name: name, objectClass: objectClass, isClassBacked: true,
                                       attributes: attributes, valueTypes: valueTypes,
                                       uniquenessConstraints: constraints, declaredRelationships: relationships,
                                       originalName: objectClass.originalEntityName, isAbstract: isAbstract,
                                       superclasses: superclasses)
        let realProbe = objectClass.init(entity: entity, insertInto: nil)
        entity.installProbe(realProbe)
        return entity
    }

    /// One attribute from its wrapper on the probe: type, default, rules, and whether it is `.unique`.
    private static func describeAttribute(_ attributeName: String, _ wrapper: AttributeWrapper, entity name: String,
                                          index: Int) throws -> (AttributeDescription, isUnique: Bool) {
        let valueType = type(of: wrapper).valueType
        var defaultValue: SQLValue?
        if wrapper.hasInitialValue {
            do {
                defaultValue = try wrapper.initialStoredValue()
            } catch {
                throw PersistError(.invalidModel, "The initial value of \(name).\(attributeName) cannot be encoded: \(error)",
                                   entity: name, attribute: attributeName)
            }
        }
        if !wrapper.hasInitialValue && !valueType.isOptionalAttribute
            && !(valueType is any PlaceholderAttributeValue.Type) {
            throw PersistError(.invalidModel,
                "\(name).\(attributeName) of type \(valueType) needs an initial value (@Attribute var \(attributeName): \(valueType) = ...), or make it optional",
                entity: name, attribute: attributeName)
        }
        let declared = try AttributeValidation.declared(by: wrapper.optionKinds, entity: name, attribute: attributeName)
        let attribute = AttributeDescription(
            name: attributeName, type: valueType.attributeType, isOptional: valueType.isOptionalAttribute,
            defaultValue: valueType.isOptionalAttribute && defaultValue == .null ? nil : defaultValue,
            index: index, valueTypeName: String(describing: valueType), validation: declared.validation,
            originalName: wrapper.originalName,
            externalStorageThreshold: try ExternalStorage.threshold(declaredBy: wrapper.optionKinds, entity: name, attribute: attributeName))
        return (attribute, declared.isUnique)
    }

    /// The class's constraints, then one per `@Attribute(.unique)` not already among them;
    /// each must name attributes.
    private static func uniquenessConstraints(_ declared: [[String]], unique: [String], entity name: String,
                                              attributes: [AttributeDescription]) throws -> [[String]] {
        var constraints = declared
        for attributeName in unique where !constraints.contains([attributeName]) {
            constraints.append([attributeName])
        }
        for constraint in constraints {
            for key in constraint where !attributes.contains(where: { $0.name == key }) {
                throw PersistError(.invalidModel, "Uniqueness constraint of \(name) names \(key), which is not an attribute",
                                   entity: name, attribute: key)
            }
            if constraint.isEmpty {
                throw PersistError(.invalidModel, "Entity \(name) has an empty uniqueness constraint", entity: name)
            }
        }
        return constraints
    }
}
