/// Delete rules, run when an object is deleted so the pending graph is consistent at once;
/// `.deny` is checked at save, against the graph as it is then.
extension ManagedObjectContext {
    /// What deleting `object` does to its related objects: the ones to delete after it
    /// (cascade). Nullified objects let go of it now.
    func applyDeleteRules(to object: ManagedObject) -> [ManagedObject] {
        var cascaded: [ManagedObject] = []
        for relationship in object.entity.relationships {
            switch relationship.deleteRule {
            case .cascade:
                cascaded += relatedObjects(of: object, relationship)
            case .nullify:
                for target in relatedObjects(of: object, relationship) { removeFromInverse(object, of: target, relationship) }
            case .deny, .noAction:
                break
            }
        }
        if !object.entity.relationships.isEmpty { graph.advance() }
        return cascaded
    }

    func relatedObjects(of object: ManagedObject, _ relationship: RelationshipDescription) -> [ManagedObject] {
        if relationship.kind == .toOne { return toOneObject(of: object, relationship: relationship.index).map { [$0] } ?? [] }
        return toManyObjects(of: object, relationship: relationship.index)
    }

    /// Takes `object` out of `target`'s side of the relationship, where `target` owns the link.
    private func removeFromInverse(_ object: ManagedObject, of target: ManagedObject, _ relationship: RelationshipDescription) {
        guard let inverseName = relationship.inverseName, let inverse = target.entity.relationship(named: inverseName) else { return }
        switch inverse.storage {
        case .foreignKey(let slot, let positionSlot):
            guard SQLValue.identical(target.storage[slot], .integer(reference(to: object))) else { return }
            target.setStoredValue(.null, at: slot)
            if let positionSlot { target.setStoredValue(.null, at: positionSlot) }
            target.related?.toOne[inverse.index] = nil
        case .joinTable(_, isOwner: true):
            let remaining = toManyObjects(of: target, relationship: inverse.index).filter { $0 !== object }
            setOwnedList(of: target, inverse, to: remaining)
        case .joinTable(_, isOwner: false), .inverseForeignKey, .unresolved:
            // `object` owns the link: it goes with the object, and the target's side, derived
            // from it, no longer shows it.
            noteToManyChange(target, relationship: inverse.index)
        }
    }

    /// Problems a save must refuse: a pending deletion that a `.deny` relationship forbids, a
    /// relationship holding fewer or more objects than its counts allow, an assignment that
    /// was refused. Each names the object and the relationship.
    func relationshipProblems(inserted: [ManagedObject], updated: [ManagedObject],
                              deleted: [ManagedObject]) -> [(object: ManagedObject, key: String, problem: String)] {
        var problems: [(ManagedObject, String, String)] = []
        for object in deleted {
            for relationship in object.entity.relationships where relationship.deleteRule == .deny {
                let holding = relatedObjects(of: object, relationship).filter { !$0.deletedFlag }
                guard !holding.isEmpty else { continue }
                problems.append((object, relationship.name,
                    "\(object.entity.name) \(object.objectID) cannot be deleted: its relationship \(relationship.name) (delete rule deny) "
                    + "still holds \(holding.count) object\(holding.count == 1 ? "" : "s")"))
            }
        }
        for object in inserted + updated where !object.entity.relationships.isEmpty {
            if let recorded = object.related?.problems, !recorded.isEmpty {
                for (index, problem) in recorded.sorted(by: { $0.key < $1.key }) {
                    problems.append((object, object.entity.relationships[index].name, problem))
                }
            }
            for relationship in object.entity.relationships where relationship.minimumCount != nil || relationship.maximumCount != nil {
                let count = relatedObjects(of: object, relationship).count
                let what = "\(object.entity.name).\(relationship.name)"
                if let minimum = relationship.minimumCount, count < minimum {
                    problems.append((object, relationship.name, relationship.kind == .toOne ? "\(what) is required but not set"
                        : "\(what) holds \(count) object\(count == 1 ? "" : "s"), fewer than its minimum of \(minimum)"))
                }
                if let maximum = relationship.maximumCount, count > maximum {
                    problems.append((object, relationship.name, "\(what) holds \(count) objects, more than its maximum of \(maximum)"))
                }
            }
        }
        return problems
    }
}
