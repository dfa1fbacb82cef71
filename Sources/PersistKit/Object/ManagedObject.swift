import Foundation

/// The base class of every persistent object.
///
/// Subclass it and declare attributes with ``Attribute``:
///
/// ```swift
/// final class TaskItem: ManagedObject {
///     override class var entityName: String { "Task" }
///     @Attribute var name: String
///     @Attribute var isComplete = false
/// }
/// let task = TaskItem(context: context)   // inserted, with a temporary ObjectID
/// task.name = "Buy milk"
/// try context.save()                      // now permanent
/// ```
///
/// A managed object is not `Sendable`: it belongs to its context. Pass its ``objectID``
/// between threads instead.
open class ManagedObject {
    /// The object's entity.
    public let entity: EntityDescription
    /// The object's identity: temporary until its first save, permanent after.
    @exclusivity(unchecked) public internal(set) final var objectID: ObjectID
    /// What the context thinks of the object (inserted, deleted, ...): one byte, its flags and
    /// their transitions in `ManagedObject+Lifecycle.swift`. Beside the ID's flag, in its padding.
    @usableFromInline @exclusivity(unchecked) final var lifecycle = Lifecycle()
    /// The context the object belongs to; nil once it is removed from its context (after
    /// `reset()`, or after its deletion is saved). A saved object whose context is freed while
    /// it is still held belongs to the successor that context hands it to (see
    /// <doc:Relationships>).
    @exclusivity(unchecked) public internal(set) weak var managedObjectContext: ManagedObjectContext?

    // Objects are confined to their context's thread, and PersistKit never holds two accesses
    // to these at once: the run-time exclusivity checks (a third of an attribute write) are off.

    /// Current values, one slot per attribute, in SQLite's representation.
    @usableFromInline @exclusivity(unchecked) final var storage: ContiguousArray<SQLValue>
    /// Values as last saved or fetched; set when the object is first changed after that.
    @exclusivity(unchecked) final var committedStorage: ContiguousArray<SQLValue>?
    /// The row's version column as last read or written (for conflict detection).
    @exclusivity(unchecked) final var version: Int64 = 0
    /// Its context's merge count when the object was read from its row (0: inserted here).
    @exclusivity(unchecked) final var readAtMerge = 0
    /// Loaded relationships and refused assignments; nil until a relationship is used.
    @exclusivity(unchecked) final var related: RelatedObjects?
    /// Values that could not be encoded when set (a Codable that failed): reported at save.
    @exclusivity(unchecked) final var encodingProblems: [Int: String]?
    /// Values of `.externalStorage` attributes read from their files, by slot, each with the
    /// reference it was read for; nil until one is read (see `ManagedObject+ExternalData.swift`).
    @exclusivity(unchecked) final var loadedExternalValues: [Int: LoadedExternalValue]?

    /// Creates an object of `entity` and inserts it into `context` if one is given.
    ///
    /// Subclasses that declare their own designated initializers must also implement this one:
    /// PersistKit uses it to make objects for fetched rows.
    public required init(entity: EntityDescription, insertInto context: ManagedObjectContext?) {
        self.entity = entity
        // An inserted object's first write would copy the shared initial values through the
        // standard library's generic copy: give it its own storage now. A fetched object's
        // storage is replaced by its row's at once, so it shares them.
        storage = context == nil ? entity.initialStorage : ManagedObject.ownStorage(copying: entity.initialStorage)
        objectID = entity.detachedObjectID
        if !entity.attributeFieldOffsets.isEmpty, ObjectIdentifier(type(of: self)) == ObjectIdentifier(entity.objectClass) {
            entity.attributeFieldOffsets.install(in: self)
        }
        if let context {
            context.insert(self)
        }
    }

    deinit {
        // The context holds saved, unchanged objects without retaining them: the last release
        // takes the object out of its identity map.
        if !hasTemporaryKey, !leftUnregistered, let context = managedObjectContext {
            context.objectWillDeallocate(self)
        }
        // After leaving the identity map: the successor it kept may go with it.
        if _slowPath(lifecycle.contains(.keepsSuccessor)) { ContextSuccessors.release(self) }
        if _slowPath(isProbe) { KeyPathProbe.unregister(self) }
        if _slowPath(isObserved) { ObjectObservation.forget(self) }
    }

    /// Creates an object of this class's entity and inserts it into `context`.
    ///
    /// The class must be an entity of the context's model, else the next save throws.
    ///
    /// ```swift
    /// let task = TaskItem(context: context)   // inserted; a temporary ObjectID until saved
    /// task.name = "Buy milk"
    /// ```
    public convenience init(context: ManagedObjectContext) {
        self.init(entity: context.entityForInsert(Self.self), insertInto: context)
    }

    /// The name of this class's entity. Override it to name the entity yourself (a class
    /// `TaskItem` for the entity "Task").
    ///
    /// ```swift
    /// final class TaskItem: ManagedObject {
    ///     override class var entityName: String { "Task" }
    /// }
    /// ```
    open class var entityName: String {
        String(describing: self)
    }

    /// Sets of attribute names whose values must be unique together among all objects of the
    /// entity, saved or pending. Override to declare them: `[["email"]]`.
    ///
    /// ```swift
    /// final class User: ManagedObject {
    ///     override class var uniquenessConstraints: [[String]] { [["email"], ["team", "handle"]] }
    ///     @Attribute var email: String
    ///     @Attribute var team: String
    ///     @Attribute var handle: String
    /// }
    /// ```
    open class var uniquenessConstraints: [[String]] { [] }

    /// The entity's name in the previous version of the model, when this version renamed it.
    /// A migration then keeps the entity's objects under the new name (see <doc:MigratingAModel>).
    ///
    /// ```swift
    /// final class Project: ManagedObject {
    ///     override class var originalEntityName: String? { "Folder" }   // version 1 called it Folder
    /// }
    /// ```
    open class var originalEntityName: String? { nil }

    /// Whether the entity is abstract: it has no objects of its own, only those of its
    /// sub-entities (Core Data's `isAbstract`). Inserting one throws at the next save.
    ///
    /// A class whose superclass is an entity of the model is a sub-entity of it: a fetch of
    /// the parent returns the sub-entities' objects too (see <doc:EntityInheritance>).
    ///
    /// ```swift
    /// class Animal: ManagedObject {
    ///     override class var isAbstractEntity: Bool { true }
    ///     @Attribute var name = ""
    /// }
    /// final class Dog: Animal {         // concrete: it inherits the override, not the abstractness
    ///     @Attribute var breed = ""
    /// }
    /// ```
    ///
    /// Only the class whose own override returns `true` is abstract (its superclass's returns
    /// `false`): subclasses inherit the property's value but are concrete entities.
    open class var isAbstractEntity: Bool { false }

    /// Called once when the object is inserted into a context: set initial values here
    /// (a creation date, say). Changes made here are part of the insert.
    ///
    /// ```swift
    /// override func awakeFromInsert() { created = Date() }
    /// ```
    open func awakeFromInsert() {}

    /// Called before a save for each inserted or updated object: throw a ``PersistError``
    /// with code `.validation` to refuse the save. Every object's problems are gathered into
    /// one error.
    ///
    /// ```swift
    /// override func validateForSave() throws {
    ///     if let due, due < created {
    ///         throw PersistError(.validation, "A task cannot be due before it was created", attribute: "due")
    ///     }
    /// }
    /// ```
    open func validateForSave() throws {}

    // MARK: State

    /// Whether the object was inserted and not yet saved.
    public var isInserted: Bool { insertedFlag }
    /// Whether the object was deleted: pending in its context, saved, or deleted by another
    /// context or process. A deleted object keeps its last values.
    public var isDeleted: Bool { deletedFlag }
    /// Whether the object has saved values that were changed and not yet saved.
    public var isUpdated: Bool {
        guard !insertedFlag, !deletedFlag else { return false }
        if related?.hasChanges == true { return true }
        guard let committed = committedStorage else { return false }
        return !SQLValue.identical(committed, storage)
    }
    /// Whether the object is inserted, updated or deleted and not yet saved.
    ///
    /// ```swift
    /// if task.hasChanges { try context.save() }
    /// ```
    public var hasChanges: Bool {
        guard managedObjectContext != nil else { return false }
        return insertedFlag || isUpdated || (deletedFlag && managedObjectContext?.isPendingDeletion(self) == true)
    }

    /// The changed attributes and their new values (nil for an attribute set to nil).
    ///
    /// ```swift
    /// task.name = "Buy oat milk"
    /// task.changedValues()                 // ["name": Optional("Buy oat milk")]
    /// ```
    public func changedValues() -> [String: Any?] {
        var result: [String: Any?] = [:]
        if insertedFlag {
            for attribute in entity.attributes where !storage[attribute.index].isNull {
                result[attribute.name] = decodedValue(at: attribute.index)
            }
            return result
        }
        guard let committed = committedStorage else { return [:] }
        for attribute in entity.attributes where !SQLValue.identical(committed[attribute.index], storage[attribute.index]) {
            result[attribute.name] = decodedValue(at: attribute.index)
        }
        return result
    }

    /// The values as last saved or fetched (nil for an attribute that was nil), for `keys`
    /// or for every attribute.
    ///
    /// ```swift
    /// task.name = "Buy oat milk"
    /// task.committedValues(forKeys: ["name"])   // ["name": Optional("Buy milk")], the saved value
    /// ```
    public func committedValues(forKeys keys: [String]? = nil) -> [String: Any?] {
        guard !insertedFlag || committedStorage != nil else { return [:] }
        let source = committedStorage ?? storage
        var result: [String: Any?] = [:]
        for attribute in entity.attributes where keys?.contains(attribute.name) ?? true {
            result[attribute.name] = decodedValue(at: attribute.index, in: source)
        }
        return result
    }

    // MARK: Storage

    /// Sets a slot; an identical value changes nothing, a different one is tracked.
    @usableFromInline
    final func setStoredValue(_ value: consuming SQLValue, at slot: Int) {
        if encodingProblems != nil { encodingProblems?[slot] = nil }
        if _slowPath(isObserved) { return setObservedValue(value, at: slot) }
        // An unsaved insert not yet reported: nothing to track (the context would return at once).
        if insertedFlag && insertUnprocessed {
            storage[slot] = value
            return
        }
        if SQLValue.identical(storage[slot], value) { return }
        if let context = managedObjectContext {
            context.objectWillChange(self, slot: slot)
        }
        storage[slot] = value
    }

    /// `setStoredValue` on an object with an Observation registrar: a different value is
    /// announced around the change.
    private final func setObservedValue(_ value: SQLValue, at slot: Int) {
        if SQLValue.identical(storage[slot], value) { return }
        let slots = SlotSet([slot])
        announceWillChange(slots)
        if !(insertedFlag && insertUnprocessed), let context = managedObjectContext {
            context.objectWillChange(self, slot: slot)
        }
        storage[slot] = value
        announceDidChange(slots)
    }

    /// A value that could not be encoded was set: the object is registered as changed so the
    /// next save reports the problem instead of dropping the assignment.
    @usableFromInline
    final func recordEncodingProblem(at slot: Int, _ error: Error) {
        if encodingProblems == nil { encodingProblems = [:] }
        encodingProblems?[slot] = "\(error)"
        managedObjectContext?.objectWillChange(self, slot: slot)
    }

    /// The Swift value of a slot, for the key-value API (nil for a value kept in a file that
    /// cannot be read: ``value(forKey:)`` throws instead).
    final func decodedValue(at slot: Int, in source: ContiguousArray<SQLValue>? = nil) -> Any? {
        var stored = (source ?? storage)[slot]
        if case .text = stored, let loaded = try? externalStoredValue(stored, at: slot) { stored = loaded }
        return decoded(stored, at: slot)
    }

    /// The Swift value of a stored value of a slot.
    final func decoded(_ stored: SQLValue, at slot: Int) -> Any? {
        if slot < entity.valueTypes.count, let valueType = entity.valueTypes[slot] {
            if stored.isNull { return nil }
            return valueType.init(storedValue: stored)
        }
        return ModelValueCoding.value(from: stored, type: entity.attributes[slot].type)
    }

    /// A new buffer holding `initial`'s values, made and filled with specialized code (a
    /// copy-on-write copy goes through the runtime's generic array copy, and
    /// `ContiguousArray(repeating:count:)` and `init(unsafeUninitializedCapacity:)` through its
    /// generic allocation, which costs twice as much).
    static func ownStorage(copying initial: ContiguousArray<SQLValue>) -> ContiguousArray<SQLValue> {
        var storage = ContiguousArray<SQLValue>()
        storage.reserveCapacity(initial.count)
        for value in initial { storage.append(value) }
        return storage
    }

    /// Records, on a probe, the attribute slot a key path read (see `KeyPathProbe`); else
    /// registers the read with Observation (see `ObjectObservation`).
    @usableFromInline
    final func noteRead(slot: Int) {
        if isProbe { return KeyPathProbe.noteAttributeRead(self, slot: slot) }
        ObjectObservation.access(self, slot: slot)
    }

    /// Gives this object's `@Attribute` wrappers their slots, the first time one is used on
    /// an object that was not given them when it was made (see `AttributeFieldOffsets`).
    @usableFromInline
    final func installAttributeSlots() {
        AttributeFieldOffsets.installMatching(in: self, entity: entity)
    }

    static func invalidEntity(for objectClass: ManagedObject.Type) -> EntityDescription {
        EntityDescription(name: objectClass.entityName, objectClass: objectClass, isClassBacked: true,
                          attributes: [], valueTypes: [], uniquenessConstraints: [])
    }
}

extension ManagedObject {
    /// The key of the object's ID: its row's primary key once saved, its temporary key before
    /// (see ``hasTemporaryKey``). Read from the ID in place: nothing is copied.
    @inline(__always)
    var identityKey: Int64 { objectID.key }

    /// Whether ``identityKey`` is a temporary key (the object is not saved yet).
    @inline(__always)
    var hasTemporaryKey: Bool { objectID.isTemporary }

    /// Orders objects that tie on every sort descriptor: saved ones by primary key, then unsaved
    /// ones by insertion. Both SQL (`ORDER BY ..., "_pk"`) and memory use this order.
    @inline(__always)
    static func tiebreak(_ a: ManagedObject, _ b: ManagedObject) -> Int {
        if a.hasTemporaryKey != b.hasTemporaryKey { return a.hasTemporaryKey ? 1 : -1 }
        return a.identityKey < b.identityKey ? -1 : (a.identityKey == b.identityKey ? 0 : 1)
    }
}

extension ManagedObject: Hashable {
    /// Objects are equal when they are the same instance: one context holds one instance per
    /// object, so this is identity within a context.
    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }

    /// Hashes the instance's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension ManagedObject: CustomStringConvertible {
    /// The entity, the object ID and the attribute values.
    public var description: String {
        let values = entity.attributes.map { attribute in
            guard storage.indices.contains(attribute.index) else { return "\(attribute.name): ?" }
            let value = storage[attribute.index]
            if attribute.allowsExternalStorage, let reference = ExternalReference(value) {
                return "\(attribute.name): <\(reference.byteCount) bytes in a file>"
            }
            return "\(attribute.name): \(value.description)"
        }
        return "<\(entity.name) \(objectID)\(deletedFlag ? " deleted" : "")> { " + values.joined(separator: ", ") + " }"
    }
}
