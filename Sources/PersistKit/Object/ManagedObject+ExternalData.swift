import Foundation

/// Reading `.externalStorage` values: a fetched object's slot holds its row's reference
/// (`<UUID>:<byte count>`, see ``ExternalReference``) until the property is read; the value is
/// then read from its file through the object's context, and kept with the object until the
/// object is refreshed, its row's reference changes, or the object is freed.
extension ManagedObject {
    /// The value a slot's reference names, as a stored value (`.blob`); nil when `stored`
    /// is not a reference of an `.externalStorage` attribute.
    ///
    /// - Throws: ``PersistError`` `.externalDataUnavailable` naming the object, the attribute
    ///   and the file when the file is missing or damaged, when another context's save replaced
    ///   the value since this object was read, or when the object is in no context.
    final func externalStoredValue(_ stored: SQLValue, at slot: Int) throws -> SQLValue? {
        guard case .text(let text) = stored, slot < entity.attributes.count, entity.attributes[slot].allowsExternalStorage else {
            return nil
        }
        if let loaded = loadedExternalValues?[slot], loaded.reference == text { return .blob(loaded.data) }
        let attribute = entity.attributes[slot]
        guard let reference = ExternalReference(text) else {
            throw PersistError(.typeMismatch, "\(entity.name).\(attribute.name) of \(objectID) holds text that names no file: \(stored)",
                               entity: entity.name, attribute: attribute.name, objectIDs: [objectID])
        }
        guard let context = managedObjectContext else {
            throw PersistError(.externalDataUnavailable,
                "The value of \(entity.name).\(attribute.name) of \(objectID) is stored outside the database, and the object is in "
                + "no context to read it through (it was deleted, or its context was reset): read it while the object is in its context",
                entity: entity.name, attribute: attribute.name, objectIDs: [objectID])
        }
        let (data, read) = try context.readExternalValue(reference, of: self, slot: slot)
        keepLoadedExternalValue(data, reference: read.text, at: slot)
        return .blob(data)
    }

    /// Keeps a value read from (or just written to) its file, for the reference the slot holds.
    final func keepLoadedExternalValue(_ data: Data, reference: String, at slot: Int) {
        if loadedExternalValues == nil { loadedExternalValues = [:] }
        loadedExternalValues?[slot] = LoadedExternalValue(reference: reference, data: data)
    }

    /// Lets go of the values read from files whose references the slots no longer hold.
    final func dropStaleExternalValues() {
        guard let loaded = loadedExternalValues else { return }
        let kept = loaded.filter { slot, value in
            slot < storage.count && { if case .text(let text) = storage[slot] { return text == value.reference } else { return false } }()
        }
        loadedExternalValues = kept.isEmpty ? nil : kept
    }
}
