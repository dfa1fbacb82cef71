import Foundation

extension ManagedObject {
    /// The value of the attribute `key` (nil when it is nil), for objects of any entity,
    /// including entities loaded from a model document that have no class.
    ///
    /// ```swift
    /// let name = try object.value(forKey: "name") as? String
    /// ```
    /// The value of an `.externalStorage` attribute kept in a file is read from it now (once:
    /// the object keeps it), so this is how to learn why such a value cannot be read, where
    /// the property reads as nil (or empty data).
    ///
    /// - Throws: ``PersistError`` with code `.unknownKey` when the entity has no such attribute,
    ///   `.externalDataUnavailable` when the value's file is missing or damaged.
    public func value(forKey key: String) throws -> Any? {
        guard let attribute = entity.attribute(named: key) else {
            throw PersistError(.unknownKey, "\(entity.name) has no attribute named \(key)",
                               entity: entity.name, attribute: key, objectIDs: [objectID])
        }
        noteAttributeRead(attribute.index)
        if attribute.allowsExternalStorage, let loaded = try externalStoredValue(storage[attribute.index], at: attribute.index) {
            return decoded(loaded, at: attribute.index)
        }
        return decodedValue(at: attribute.index)
    }

    /// Sets the attribute `key` to `value`, tracked like any other change.
    ///
    /// ```swift
    /// try task.setValue("Buy milk", forKey: "name")
    /// try task.setValue(nil, forKey: "due")
    /// ```
    ///
    /// - Throws: ``PersistError`` with code `.unknownKey` for an unknown key, `.typeMismatch`
    ///   for a value that does not fit the attribute's type, or nil for a required attribute.
    public func setValue(_ value: Any?, forKey key: String) throws {
        guard let attribute = entity.attribute(named: key) else {
            throw PersistError(.unknownKey, "\(entity.name) has no attribute named \(key)",
                               entity: entity.name, attribute: key, objectIDs: [objectID])
        }
        var stored: SQLValue?
        if attribute.index < entity.valueTypes.count, let valueType = entity.valueTypes[attribute.index],
           let typed = value as? any AttributeValue, ObjectIdentifier(Swift.type(of: typed)) == ObjectIdentifier(valueType) {
            stored = try? typed.makeStoredValue()
        }
        if stored == nil {
            stored = ModelValueCoding.storedValue(from: value, type: attribute.type)
        }
        guard var stored else {
            throw PersistError(.typeMismatch,
                "Cannot set \(entity.name).\(key) (\(attribute.type.rawValue)) to a value of type \(ModelValueCoding.typeName(of: value))",
                entity: entity.name, attribute: key, objectIDs: [objectID])
        }
        if case .integer(let integer) = stored, attribute.type.columnType == "REAL" {
            stored = .real(Double(integer))
        }
        if stored.isNull && !attribute.isOptional {
            throw PersistError(.typeMismatch, "\(entity.name).\(key) is not optional: it cannot be set to nil",
                               entity: entity.name, attribute: key, objectIDs: [objectID])
        }
        if let valueType = attribute.index < entity.valueTypes.count ? entity.valueTypes[attribute.index] : nil,
           !stored.isNull, valueType.init(storedValue: stored) == nil {
            throw PersistError(.typeMismatch,
                "\(ModelValueCoding.typeName(of: value)) value is not a valid \(attribute.valueTypeName) for \(entity.name).\(key)",
                entity: entity.name, attribute: key, objectIDs: [objectID])
        }
        setStoredValue(stored, at: attribute.index)
    }
}
