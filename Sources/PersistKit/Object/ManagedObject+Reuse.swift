@_spi(Reflection) import Swift
import Synchronization

/// Reusing an object a batched fetch let go for the next row it reads.
///
/// Walking a big table a batch at a time makes and frees one object per row. When nothing can
/// tell a freed object from a refilled one, the batch refills the object it lets go instead:
/// no allocation, no `deinit`, no new storage buffer. That holds when the object is held by
/// nothing but the batch (no strong, weak or unowned reference anywhere else), has no state of
/// its own beyond its row (its class declares only `@Attribute` and `@Relationship` wrappers,
/// whose state is the same in every instance), and no unsaved change or loaded relationship,
/// and Observation does not watch it (its registrar is for its row: see `ObjectObservation`).
extension ManagedObject {
    /// Whether `object`, just let go by a batch (taken out of its context's identity map
    /// because nothing but the caller held it strongly), can be refilled with another row of
    /// `entity` instead of being freed.
    @inline(__always)
    static func canRefill(_ object: ManagedObject, as entity: EntityDescription) -> Bool {
        guard entity.reusesObjects, object.leftUnregistered,
              ObjectIdentifier(type(of: object)) == ObjectIdentifier(entity.objectClass),
              !object.insertedFlag, !object.deletedFlag, object.committedStorage == nil, object.related == nil,
              object.encodingProblems == nil, object.loadedExternalValues == nil, !object.isProbeOrObserved else { return false }
        // A weak or unowned reference (the app's) would see the object change rows: 1 is the
        // count every live object has.
        return _getWeakRetainCount(object) == 1 && _getUnownedRetainCount(object) == 1
    }

    /// Whether every stored property `objectClass` adds to `ManagedObject` is an `@Attribute`
    /// or `@Relationship` wrapper, so that two instances with the same row are indistinguishable
    /// (a property of the app's own, a cache say, would carry over to the next row). False when
    /// the runtime cannot describe a field. Found once per class.
    static func holdsOnlyDeclarations(_ objectClass: ManagedObject.Type) -> Bool {
        let key = ObjectIdentifier(objectClass)
        if let known = declarationOnlyClasses.withLock({ $0[key] }) { return known }
        let baseFieldCount = fieldCount(of: ManagedObject.self)
        var index = 0
        var onlyDeclarations = baseFieldCount != nil
        let complete = _forEachField(of: objectClass, options: _EachFieldOptions(rawValue: 1)) { _, _, type, _ in
            // Superclasses' fields come first: ManagedObject's own, then each subclass's.
            defer { index += 1 }
            if index >= baseFieldCount ?? 0, !(type is any AttributeWrapper.Type), !(type is any RelationshipWrapper.Type) {
                onlyDeclarations = false
                return false
            }
            return true
        }
        let result = complete && onlyDeclarations
        declarationOnlyClasses.withLock { $0[key] = result }
        return result
    }

    private static func fieldCount(of objectClass: AnyClass) -> Int? {
        var count = 0
        let complete = _forEachField(of: objectClass, options: _EachFieldOptions(rawValue: 1)) { _, _, _, _ in
            count += 1
            return true
        }
        return complete ? count : nil
    }

    private static let declarationOnlyClasses = Mutex<[ObjectIdentifier: Bool]>([:])
}
