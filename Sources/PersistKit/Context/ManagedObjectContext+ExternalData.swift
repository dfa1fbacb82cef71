import Foundation

extension ManagedObjectContext {
    /// Reads the file of a value an object's slot names. A missing file may be the sign of
    /// another context's or process's save that replaced or deleted the value after this
    /// context read the row (its file goes with that commit): an unchanged object of a context
    /// that merges then takes the row as it is now, as the next merge would, and the value its
    /// row holds now is read instead.
    ///
    /// - Returns: The bytes, and the reference they were read for.
    func readExternalValue(_ reference: ExternalReference, of object: ManagedObject,
                           slot: Int) throws -> (Data, ExternalReference) {
        let entity = object.entity, attribute = entity.attributes[slot]
        guard let folder = store.externalData else {
            throw PersistError(.externalDataUnavailable,
                "The value of \(entity.name).\(attribute.name) of \(object.objectID) names a file, but the store keeps no files",
                entity: entity.name, attribute: attribute.name, objectIDs: [object.objectID], store: store.displayPath)
        }
        let failure: ExternalDataFolder.ReadFailure
        switch folder.contents(of: reference) {
        case .success(let data): return (data, reference)
        case .failure(let found): failure = found
        }
        func unavailable(_ failure: ExternalDataFolder.ReadFailure, _ file: ExternalReference) -> PersistError {
            failure.error(entity: entity.name, attribute: attribute.name, file: folder.filePath(file), objectIDs: [object.objectID])
        }
        guard failure == .missing, !object.insertedFlag else { throw unavailable(failure, reference) }
        if automaticallyMergesChanges, !object.isChangedSinceRead {
            refresh(object, mergeChanges: true)
            if !object.deletedFlag, let current = ExternalReference(object.storage[slot]), current != reference {
                switch folder.contents(of: current) {
                case .success(let data): return (data, current)
                case .failure(let failure): throw unavailable(failure, current)
                }
            }
        }
        if object.deletedFlag || !rowHolds(reference, object, slot: slot) {
            throw PersistError(.externalDataUnavailable,
                "The value of \(entity.name).\(attribute.name) of \(object.objectID) was replaced or deleted by another context or "
                + "process after this context read it: refresh the object to read what the store holds now",
                entity: entity.name, attribute: attribute.name, objectIDs: [object.objectID], store: folder.filePath(reference))
        }
        throw unavailable(failure, reference)
    }

    /// Whether an object's row holds `reference` in a slot now (true when that cannot be read).
    private func rowHolds(_ reference: ExternalReference, _ object: ManagedObject, slot: Int) -> Bool {
        var found: SQLValue?
        do {
            try store.read(object.entity, keys: [object.objectID.key]) { _, _, decode in found = try decode()[slot] }
        } catch {
            return true
        }
        return found == reference.storedValue
    }
}

extension ManagedObjectContext {
    /// After a save's commit: the objects whose values the save moved into files hold the
    /// references their rows hold now, and keep the bytes they were given as read.
    func takeExternalReferences(_ moved: [ExternalizedValue], inserts: [ManagedObject], updates: [ManagedObject]) {
        for value in moved {
            let object: ManagedObject
            switch value.row {
            case .insert(let position):
                guard position < inserts.count else { continue }
                object = inserts[position]
            case .update(let index):
                guard index < updates.count else { continue }
                object = updates[index]
            }
            guard value.slot < object.storage.count, case .blob(let data) = object.storage[value.slot],
                  data.count == value.reference.byteCount else { continue }
            object.storage[value.slot] = value.reference.storedValue
            object.keepLoadedExternalValue(data, reference: value.reference.text, at: value.slot)
        }
    }
}
