/// One link of a relationship changed, read or counted at a time (`project.$tasks.insert(task)`,
/// see `RelationshipLinks`): the loaded lists change in place, a member is found through the
/// list's member index, and no collection of the related objects is made or compared.
extension ManagedObjectContext {
    /// Links `member` to `owner`'s relationship `index`, or unlinks it, as assigning the
    /// relationship with it added or taken out would: the inverse follows, and a link the
    /// assignment would refuse is refused the same way (the next save names the relationship).
    func setLink(_ member: ManagedObject, of owner: ManagedObject, relationship index: Int, linked: Bool) {
        guard index < owner.entity.relationships.count else { return }
        let relationship = owner.entity.relationships[index]
        if let problem = assignmentProblem(owner, relationship, linked ? [member] : []) {
            recordProblem(problem, of: owner, relationship: index)
            return
        }
        // An object of another context, or deleted, is held by no list of this one.
        guard linked || (member.managedObjectContext === self && member.entity.isKind(of: relationship.destinationEntityName)) else { return }
        switch relationship.storage {
        case .foreignKey:
            if linked {
                setToOneRelationship(of: owner, relationship: index, to: member)
            } else if toOneObject(of: owner, relationship: index) === member {
                setToOneRelationship(of: owner, relationship: index, to: nil)
            }
        case .inverseForeignKey(let inverse, let slot, _):
            guard let destination = destination(of: relationship), inverse < destination.relationships.count,
                  slot < member.storage.count else { return }
            let held = SQLValue.identical(member.storage[slot], .integer(reference(to: owner)))
            clearProblem(of: owner, relationship: index)
            if linked != held { setToOne(member, destination.relationships[inverse], linked ? owner : nil) }
        case .joinTable(_, isOwner: true):
            clearProblem(of: owner, relationship: index)
            setOwnedLink(member, of: owner, relationship, linked: linked)
        case .joinTable(_, isOwner: false):
            // The link is a member of the other side's owned list.
            guard let destination = destination(of: relationship), let inverse = relationship.inverse(in: destination) else { return }
            clearProblem(of: owner, relationship: index)
            setOwnedLink(owner, of: member, inverse, linked: linked)
        case .unresolved:
            return
        }
    }

    /// Adds `member` to or takes it out of `owner`'s owned list (a join table's owning side).
    private func setOwnedLink(_ member: ManagedObject, of owner: ManagedObject, _ relationship: RelationshipDescription, linked: Bool) {
        let index = relationship.index
        let checked = owner.related?.toMany[index]?.checkedGeneration == graph.generation
        // The objects are not held past the count: appending to the list then needs no copy.
        let count = toManyObjects(of: owner, relationship: index).count
        if !checked { graph.countListEditVisits(count) }
        guard let contents = owner.related?.toMany[index], contents.objects?.count == contents.references.count else {
            // The list holds objects a read leaves out (deleted ones): assigning it decides.
            let others = toManyObjects(of: owner, relationship: index).filter { $0 !== member }
            return setRelationship(of: owner, relationship: index, to: linked ? others + [member] : others)
        }
        let reference = reference(to: member)
        let position = memberPosition(reference, in: contents)
        guard linked == (position == nil) else { return }
        if undoManager != nil { undoRecordWillChangeList(owner, relationship: index, contents) }
        if contents.committed == nil {
            graph.countListEditVisits(contents.references.count)
            contents.committed = contents.references
            noteListOwner(owner)
        }
        if linked {
            appendMember(reference, member, to: contents)
        } else {
            removeMember(reference, from: contents, ordered: relationship.kind == .orderedToMany)
        }
        markChanged(owner)
        noteToManyChange(owner, relationship: index)
        linkPartner(member, owner: owner, relationship, linked: linked)
        noteInverseChange(member, relationship)
    }

    /// Whether `owner`'s relationship `index` holds `member`.
    func holdsLink(_ member: ManagedObject, of owner: ManagedObject, relationship index: Int) -> Bool {
        guard index < owner.entity.relationships.count, member.managedObjectContext === self else { return false }
        let relationship = owner.entity.relationships[index]
        guard relationship.kind.isToMany else { return toOneObject(of: owner, relationship: index) === member }
        let objects = toManyObjects(of: owner, relationship: index)
        guard let contents = owner.related?.toMany[index], contents.objects?.count == contents.references.count else {
            return objects.contains { $0 === member }
        }
        guard let position = memberPosition(reference(to: member), in: contents) else { return false }
        return contents.objects?[position] === member
    }

    /// How many objects `owner`'s relationship `index` holds.
    func linkCount(of owner: ManagedObject, relationship index: Int) -> Int {
        guard index < owner.entity.relationships.count else { return 0 }
        guard owner.entity.relationships[index].kind.isToMany else {
            return toOneObject(of: owner, relationship: index) == nil ? 0 : 1
        }
        return toManyObjects(of: owner, relationship: index).count
    }
}
