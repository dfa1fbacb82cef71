/// After a save that met other saves' changes: the objects take the rows as the store settled
/// them (combined, kept from deletion, or with their changes discarded).
extension ManagedObjectContext {
    /// Brings the saved objects in line with rows the store settled against another save:
    /// each takes the row's values and version; an object whose deletion was not done comes
    /// back (its observers hear of it as inserted again). Observers hear exactly what the
    /// other save changed: the values (`noteRefreshed`), and the lists, which the row's version
    /// does not show (a link the other save added moved it), compared with the store's once
    /// every row is taken.
    func takeSettledRows(_ rows: [StoreWriteResult.Row], deleted: [ManagedObject]) {
        let generationRead = graph.generation
        graph.advance()
        var listsHeard: [(object: ManagedObject, lists: [Int: [Int64]])] = []
        var deletedByKey: [ObjectIdentifier: [Int64: ManagedObject]] = [:]
        if rows.contains(where: { $0.outcome == .keptFromDeletion }) {
            for object in deleted { deletedByKey[ObjectIdentifier(object.entity), default: [:]][object.objectID.key] = object }
        }
        for row in rows {
            let objects = entityObjects(row.entity)
            switch row.outcome {
            case .combined, .discarded:
                guard let object = objects.byKey[row.key] else { continue }
                // Its loaded lists as observers last heard them (this save's own links included).
                if let related = object.related, !related.toMany.isEmpty {
                    listsHeard.append((object, listsKeptCurrent(of: object, related, at: generationRead)))
                }
                noteRefreshed(object, newStorage: row.storage)
                object.version = row.version
            case .keptFromDeletion:
                guard let object = deletedByKey[ObjectIdentifier(row.entity)]?[row.key] else { continue }
                restore(object, key: row.key, in: objects)
                object.storage = row.storage
                object.version = row.version
                if !pendingNotice.cancelDelete(object) { pendingNotice.queueInsert(object) }
            }
        }
        // (A restored object is reported as inserted: controllers find the objects whose lists
        // it is back in through its relationships.)
        for (object, lists) in listsHeard where !object.deletedFlag { noteStoredListChanges(of: object, from: lists) }
    }

    /// The loaded lists of `object` that were current at `generation`: owned lists, and derived
    /// ones computed since the graph last moved. A derived list computed before is no record of
    /// what was heard: each link made since was announced as it was made (its partners' derived
    /// lists are not updated in place once stale), and it is computed again when read.
    private func listsKeptCurrent(of object: ManagedObject, _ related: RelatedObjects, at generation: Int) -> [Int: [Int64]] {
        var lists: [Int: [Int64]] = [:]
        for (index, contents) in related.toMany {
            if case .joinTable(_, isOwner: true) = object.entity.relationships[index].storage {
                lists[index] = contents.references
            } else if contents.generation == generation {
                lists[index] = contents.references
            }
        }
        return lists
    }

    /// A deleted object whose deletion the store did not do: registered in this context again.
    private func restore(_ object: ManagedObject, key: Int64, in objects: EntityObjects) {
        object.deletedFlag = false
        object.committedStorage = nil
        object.related = nil
        object.managedObjectContext = self
        if isObservable { object.lifecycle.insert(.tracksReads) }
        objects.byKey.insert(object, for: key)
    }

    /// With `.storeTrump` or `.rollback`, an object changed here and deleted elsewhere loses
    /// its changes: the other save's deletion stands. The object stays deleted, with the
    /// values it had when read, and leaves the context.
    func discardChanges(toObjectsDeletedElsewhere objects: [ManagedObject]) {
        for object in objects {
            if let related = object.related { rollBackRelationships(of: object, related) }
            if let committed = object.committedStorage { object.replaceStorage(with: committed) }
            object.committedStorage = nil
            object.encodingProblems = nil
            changeTracker.forgetChange(object)
            pendingNotice.cancelUpdate(object)
            object.managedObjectContext = nil
        }
        graph.advance()
    }
}

extension MergePolicy {
    /// The policy in the store's terms.
    var resolution: StoreWritePlan.ConflictResolution {
        switch self {
        case .error: return .fail
        case .objectTrump: return .writeLocal
        case .storeTrump: return .keepStored
        case .rollback: return .discardLocal
        }
    }
}
