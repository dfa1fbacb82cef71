import Foundation

/// An entity of a model: its name, its class, its attributes and relationships.
///
/// ```swift
/// let entity = model.entity(for: TaskItem.self)      // or model.entity(named: "Task")
/// entity?.attributeNames                              // ["name", "notes", "due", "isComplete"]
/// entity?.attribute(named: "due")?.isOptional         // true
/// ```
///
/// Entities described by a class are built once per class, by reflecting an instance (the
/// probe) at model creation; nothing is reflected per object or per row.
public final class EntityDescription: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable after init, except `probe`,
    // which only `lock` guards, and `relationshipSlotTable`, which is lock-free (atomics).

    /// The entity's name, which is also its table name.
    public let name: String
    /// The class whose instances represent the entity's objects (`ManagedObject` for entities
    /// loaded from a model document).
    public let objectClass: ManagedObject.Type
    /// Whether the entity was described by a class (rather than only by a model document).
    public let isClassBacked: Bool
    /// The attributes, in slot order.
    public let attributes: [AttributeDescription]
    /// Sets of attribute names whose values must be unique together.
    public let uniquenessConstraints: [[String]]
    /// The relationships, in declaration order (resolved against the model: inverses and storage).
    public let relationships: [RelationshipDescription]
    /// The entity's name in the previous model version, when this version renamed it
    /// (``ManagedObject/originalEntityName``); a migration keeps its objects.
    public let originalName: String?
    /// Whether the entity is abstract: it has no objects of its own, only its sub-entities'
    /// (``ManagedObject/isAbstractEntity``).
    public let isAbstract: Bool
    /// The entity this one inherits from (its superclass's entity), if any: a fetch of that
    /// entity returns this one's objects too (see <doc:EntityInheritance>).
    public let superentityName: String?

    /// The entity's place in an inheritance tree (nil for an entity with no parent and no
    /// children: it keeps a table of its own, as before inheritance existed).
    let inheritance: EntityInheritance?
    /// The class's superclasses up to `ManagedObject`, nearest first: the model makes the
    /// nearest that is one of its entities this entity's parent.
    let superclasses: [ObjectIdentifier]

    /// The relationships as declared by the class or document, before the model resolves them.
    let declaredRelationships: [RelationshipDeclaration]
    /// The table's columns after `_pk` and `_version`, one per storage slot.
    let columns: [StoredColumn]
    let relationshipIndexByName: [String: Int]
    /// Slots that hold a to-one's foreign key (they may hold a temporary key, negated, until saved).
    let foreignKeySlots: [Int]
    /// Relationship wrappers' key paths to relationship indexes (attributes' wrappers hold their slots).
    let relationshipSlotTable: StorageSlotTable
    /// The model's other entities, for following relationships by name (filled by the model).
    let directory = EntityDirectory()

    let attributeIndexByName: [String: Int]
    /// Each attribute's Swift type, for class-backed entities (used to validate stored values).
    let valueTypes: [(any AttributeValue.Type)?]
    /// Each new object's storage: defaults, NULL where there is none.
    let initialStorage: ContiguousArray<SQLValue>
    /// Where the class's `@Attribute` wrappers keep their slots: set in each new object.
    let attributeFieldOffsets: AttributeFieldOffsets
    /// Whether a batched fetch may refill an object it lets go with its next row: the class
    /// holds nothing but its row (see `ManagedObject.canRefill(_:as:)`).
    let reusesObjects: Bool
    /// Slots that must not be NULL at save, and slots holding reals (NaN is refused): computed
    /// once, checked per object.
    let requiredSlots: [Int]
    let realSlots: [Int]
    /// The slots of the attributes declared `.externalStorage` (see `ExternalStorage`).
    let externalStorageSlots: [Int]
    /// The declared rules of the attributes that have some.
    let validators: [SlotValidator]
    /// Each uniqueness constraint as slots, in the constraint's order.
    let uniquenessSlots: [[Int]]
    /// The ID of an object of this entity made outside any context (no store, temporary key
    /// 0): made once here, since interning it per object would take the registry's lock.
    let detachedObjectID: ObjectID

    private let lock = NSRecursiveLock()
    private var probe: ManagedObject?

    init(name: String, objectClass: ManagedObject.Type, isClassBacked: Bool,
         attributes: [AttributeDescription], valueTypes: [(any AttributeValue.Type)?],
         uniquenessConstraints: [[String]], declaredRelationships: [RelationshipDeclaration] = [],
         relationships: [RelationshipDescription]? = nil, originalName: String? = nil,
         isAbstract: Bool = false, superentityName: String? = nil, superclasses: [ObjectIdentifier] = [],
         inheritance: EntityInheritance? = nil) {
        self.name = name
        self.isAbstract = isAbstract
        self.superentityName = superentityName
        self.superclasses = superclasses
        self.inheritance = inheritance
        detachedObjectID = ObjectID(entityName: name, storeIdentifier: "", key: 0, isTemporary: true)
        self.originalName = originalName
        self.objectClass = objectClass
        self.isClassBacked = isClassBacked
        self.attributes = attributes
        self.valueTypes = valueTypes
        self.uniquenessConstraints = uniquenessConstraints
        self.declaredRelationships = declaredRelationships
        let relationships = relationships ?? declaredRelationships.enumerated().map { $0.element.unresolved(index: $0.offset) }
        self.relationships = relationships
        columns = inheritance?.columns(attributes: attributes, relationships: relationships)
            ?? Self.columns(attributes: attributes, relationships: relationships)
        relationshipIndexByName = Dictionary(relationships.map { ($0.name, $0.index) }, uniquingKeysWith: { first, _ in first })
        foreignKeySlots = columns.compactMap { if case .foreignKey = $0.role { return $0.slot } else { return nil } }
        relationshipSlotTable = StorageSlotTable(attributeCount: relationships.count)
        var byName: [String: Int] = [:]
        for attribute in attributes { byName[attribute.name] = attribute.index }
        attributeIndexByName = byName
        initialStorage = ContiguousArray(attributes.map(\.initialStoredValue)
            + Array(repeating: SQLValue.null, count: columns.count - attributes.count))
        attributeFieldOffsets = isClassBacked && !attributes.isEmpty
            ? AttributeFieldOffsets(objectClass: objectClass, attributes: attributes, valueTypes: valueTypes) : .none
        reusesObjects = ManagedObject.holdsOnlyDeclarations(objectClass)
        requiredSlots = attributes.filter { !$0.isOptional }.map(\.index)
        realSlots = attributes.filter { $0.type.columnType == "REAL" }.map(\.index)
        externalStorageSlots = attributes.filter(\.allowsExternalStorage).map(\.index)
        validators = attributes.filter { !$0.validation.isEmpty }.map { SlotValidator(attribute: $0, entityName: name) }
        // Document models match constraint keys without case, as SQLite does.
        uniquenessSlots = uniquenessConstraints.map { keys in
            keys.compactMap { key in byName[key] ?? attributes.first { $0.name.lowercased() == key.lowercased() }?.index }
        }
    }

    /// The attribute named `name`, if there is one.
    public func attribute(named name: String) -> AttributeDescription? {
        attributeIndexByName[name].map { attributes[$0] }
    }

    /// Attribute names, in slot order.
    public var attributeNames: [String] { attributes.map(\.name) }

    /// The names of the entities that inherit from this one directly, in the model's order.
    public var subentityNames: [String] { inheritance?.subentityNames ?? [] }

    /// Whether a fetch that includes sub-entities reads other entities' objects than this one's.
    var readsSubentities: Bool {
        guard let names = inheritance?.concreteEntityNames else { return false }
        return names.count != 1 || names[0] != name
    }

    /// Whether this entity's objects may be held by a relationship to the entity named `name`:
    /// it is that entity, or inherits from it.
    @inline(__always)
    func isKind(of name: String) -> Bool {
        self.name == name || inheritance?.ancestorNames.contains(name) == true
    }

    /// What SQL reading through a relationship names as this entity's rows (the caller names
    /// them with `AS`): its own and every entity's below it, since a relationship to a parent
    /// holds its sub-entities' objects too. A tree's root has them all: its whole table.
    var rowsWithSubentitiesSQL: String {
        guard let inheritance, inheritance.tableName != name else { return SQLName.quote(name) }
        return "(SELECT * FROM \(SQLName.quote(inheritance.tableName)) WHERE \(SQLName.quote(EntityInheritance.entityColumn)) IN ("
            + inheritance.concreteEntityNames.map(SQLName.literal).joined(separator: ", ") + "))"
    }

    /// The entity whose objects (with its sub-entities') the `constraint`th uniqueness constraint
    /// spans: this one, or in a tree the ancestor that declares it (see
    /// `EntityInheritance.uniquenessScopes`).
    func uniquenessScope(_ constraint: Int) -> String {
        inheritance?.uniquenessScopes[constraint] ?? name
    }

    /// The table the entity's rows live in: its own, or its inheritance tree's root's.
    var tableName: String { inheritance?.tableName ?? name }

    /// The join tables of the relationships this entity owns and declares (a sub-entity's
    /// inherited ones are its parent's: one table for the tree).
    var ownedJoinTables: [JoinTable] {
        relationships.compactMap { relationship in
            guard case .joinTable(let table, isOwner: true) = relationship.storage, table.ownerEntity == name else { return nil }
            return table
        }
    }

    /// The relationship named `name`, if there is one.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationshipIndexByName[name].map { relationships[$0] }
    }

    /// The name a change notice reports for a storage slot, or for a to-many's virtual slot
    /// (`columns.count + relationship index`).
    func keyName(forSlot slot: Int) -> String? {
        if slot < columns.count { return columns[slot].keyName }
        let relationship = slot - columns.count
        return relationship < relationships.count ? relationships[relationship].name : nil
    }

    /// The storage slot (or to-many virtual slot) a change of `key` is reported under.
    func slot(forKey key: String) -> Int? {
        if let index = attributeIndexByName[key] { return index }
        guard let index = relationshipIndexByName[key] else { return nil }
        if case .foreignKey(let slot, _) = relationships[index].storage { return slot }
        return columns.count + index
    }

    /// Column slots: attributes, then each to-one's foreign key, then positions in ordered inverses.
    private static func columns(attributes: [AttributeDescription], relationships: [RelationshipDescription]) -> [StoredColumn] {
        var columns = attributes.map {
            StoredColumn(name: $0.name, slot: $0.index, type: $0.type, isOptional: $0.isOptional, role: .attribute, keyName: $0.name)
        }
        for relationship in relationships where relationship.kind == .toOne {
            columns.append(StoredColumn(name: relationship.name, slot: columns.count, type: .integer, isOptional: true,
                                        role: .foreignKey(relationship: relationship.index), keyName: relationship.name))
        }
        for relationship in relationships {
            guard case .foreignKey(_, let positionSlot?) = relationship.storage else { continue }
            columns.append(StoredColumn(name: StoredColumn.positionColumnName(for: relationship.name), slot: positionSlot,
                                        type: .integer, isOptional: true, role: .position(relationship: relationship.index),
                                        keyName: relationship.name))
        }
        return columns
    }

    /// The relationship a `@Relationship` storage key path names, found like an attribute's slot.
    func relationshipIndex<Object: ManagedObject, Wrapper: RelationshipWrapper>(
        for storageKeyPath: ReferenceWritableKeyPath<Object, Wrapper>
    ) -> Int {
        let published = relationshipSlotTable.slot(for: storageKeyPath)
        if published >= 0 { return published }
        lock.lock()
        defer { lock.unlock() }
        guard let probe = probe as? Object else { return -1 }
        probe[keyPath: storageKeyPath].probeMark = true
        let wrappers = EntityReflection.relationshipWrappers(of: probe)
        probe[keyPath: storageKeyPath].probeMark = false
        guard let found = wrappers.firstIndex(where: { $0.wrapper.probeMark }), found < relationships.count else {
            return -1
        }
        relationshipSlotTable.publish(found, for: storageKeyPath)
        return found
    }

    /// The relationship a plain key path (`\Project.tasks`) reads, found by reading it on the probe.
    func relationshipIndex(forKeyPath keyPath: AnyKeyPath) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard let probe else { return nil }
        _ = KeyPathProbe.takeReads(of: probe)
        _ = probe[keyPath: keyPath]
        let found = KeyPathProbe.takeReads(of: probe).relationship
        return found >= 0 ? found : nil
    }

    /// The same entity with its relationships resolved against a model (and, in an inheritance
    /// tree, the tree's relationship columns placed).
    func resolving(_ relationships: [RelationshipDescription], inheritance placed: EntityInheritance? = nil) -> EntityDescription {
        let entity = EntityDescription(name: name, objectClass: objectClass, isClassBacked: isClassBacked, attributes: attributes,
                                       valueTypes: valueTypes, uniquenessConstraints: uniquenessConstraints,
                                       declaredRelationships: declaredRelationships, relationships: relationships,
                                       originalName: originalName, isAbstract: isAbstract, superentityName: superentityName,
                                       superclasses: superclasses, inheritance: placed ?? inheritance)
        if isClassBacked {
            entity.installProbe(objectClass.init(entity: entity, insertInto: nil))
        }
        return entity
    }

    /// The same entity in an inheritance tree of a model (or out of any, with nil), with the
    /// uniqueness constraints it has there (its parent's, then its own).
    func placed(superentityName: String?, inheritance: EntityInheritance?, uniquenessConstraints: [[String]]) -> EntityDescription {
        let entity = EntityDescription(name: name, objectClass: objectClass, isClassBacked: isClassBacked, attributes: attributes,
                                       valueTypes: valueTypes, uniquenessConstraints: uniquenessConstraints,
                                       declaredRelationships: declaredRelationships, relationships: relationships,
                                       originalName: originalName, isAbstract: isAbstract, superentityName: superentityName,
                                       superclasses: superclasses, inheritance: inheritance)
        if isClassBacked {
            entity.installProbe(objectClass.init(entity: entity, insertInto: nil))
        }
        return entity
    }

    func installProbe(_ object: ManagedObject) {
        lock.lock()
        defer { lock.unlock() }
        object.storage = initialStorage
        KeyPathProbe.register(object)
        probe = object
    }
}

extension EntityDescription: CustomStringConvertible {
    /// `Task(name: string, notes: string?, ...)`.
    public var description: String {
        name + "(" + attributes.map { "\($0.name): \($0.type.rawValue)\($0.isOptional ? "?" : "")" }
            .joined(separator: ", ") + ")"
    }
}
