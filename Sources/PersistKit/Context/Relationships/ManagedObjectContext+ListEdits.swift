/// Changing one link of a to-many in place. Relating objects one at a time (`task.project =
/// project` for 50,000 tasks, `tag.tasks.insert(task)`, `plan.steps.append(step)`) must not
/// recompute or rebuild whole lists per link: a link changed here updates the loaded lists it
/// touches (the owner's and the partners' derived sides), which stay current; and a to-many
/// property assigned back after one insert or append links just the objects added.
extension ManagedObjectContext {
    // MARK: Loaded lists kept current

    /// `owner`'s loaded list for to-many `index` when it is current: an owned list, or a derived
    /// one computed at this graph generation. Nil when it must be computed when next read.
    func currentList(of owner: ManagedObject, relationship index: Int) -> ToManyContents? {
        guard let contents = owner.related?.toMany[index] else { return nil }
        if case .joinTable(_, isOwner: true) = owner.entity.relationships[index].storage { return contents }
        return contents.generation == graph.generation ? contents : nil
    }

    /// After `child`'s to-one moved from `old` to `new` (at `position`, for an ordered
    /// `inverse`): both inverse lists, when loaded and current, take the change in place.
    func moveChild(_ child: ManagedObject, inverse: RelationshipDescription, from old: ManagedObject?,
                   to new: ManagedObject?, position: SQLValue) {
        guard case .inverseForeignKey(_, _, let positionSlot) = inverse.storage else { return }
        let member = reference(to: child)
        if let old, let contents = currentList(of: old, relationship: inverse.index) {
            removeMember(member, from: contents, ordered: positionSlot != nil)
        }
        guard let new, let contents = currentList(of: new, relationship: inverse.index) else { return }
        guard let positionSlot else { return appendMember(member, child, to: contents) }
        let place: Int64 = if case .integer(let value) = position { value } else { .max }
        if contents.isDense && place == Int64(contents.references.count) {
            appendMember(member, child, to: contents)
            contents.isDense = true
        } else if endsBefore(contents, member: (member, place), positionSlot: positionSlot, entity: child.entity) {
            appendMember(member, child, to: contents)
        } else {
            // It goes somewhere inside: computed again when read.
            new.related?.toMany[inverse.index] = nil
        }
    }

    /// The position that puts a child after every child of an ordered derived list: its count
    /// while positions are 0, 1, 2..., else one past the last child's. A child that left from
    /// the middle leaves a gap, so the count would tie with the last child (and ties sort by key).
    func appendPosition(in contents: ToManyContents?, children entity: EntityDescription, positionSlot: Int) -> Int64 {
        guard let contents, let last = contents.references.last else { return 0 }
        let count = Int64(contents.references.count)
        guard !contents.isDense, let child = resolve(last, in: entity), positionSlot < child.storage.count,
              case .integer(let position) = child.storage[positionSlot], position < .max else { return count }
        return max(count, position + 1)
    }

    /// Whether an ordered derived list's last child sorts before `member`, by position then key.
    private func endsBefore(_ contents: ToManyContents, member: (reference: Int64, position: Int64), positionSlot: Int,
                            entity: EntityDescription) -> Bool {
        guard let last = contents.references.last else { return true }
        guard let object = resolve(last, in: entity), positionSlot < object.storage.count else { return false }
        let position: Int64 = if case .integer(let value) = object.storage[positionSlot] { value } else { .max }
        return Self.listOrder((last, position), member)
    }

    /// After `owner`'s owned list (`relationship`) gained or lost `partner`: the partner's
    /// derived side, when loaded and current, takes the change in place.
    func linkPartner(_ partner: ManagedObject, owner: ManagedObject, _ relationship: RelationshipDescription, linked: Bool) {
        guard let inverseName = relationship.inverseName, let inverse = partner.entity.relationship(named: inverseName),
              case .joinTable(_, isOwner: false) = inverse.storage,
              let contents = currentList(of: partner, relationship: inverse.index) else { return }
        // An ordered derived side's order comes from the store: computed again when read.
        guard inverse.kind != .orderedToMany else { partner.related?.toMany[inverse.index] = nil; return }
        let member = reference(to: owner)
        if !linked {
            removeMember(member, from: contents, ordered: false)
        } else if memberPosition(member, in: contents) == nil {
            appendMember(member, owner, to: contents)
        }
    }

    /// Where `member` is in a list: a scan of a short list; for a long one, its member index
    /// (made the first time, then kept by the edits of one link).
    func memberPosition(_ member: Int64, in contents: ToManyContents) -> Int? {
        if let index = contents.memberIndex { return index[member] }
        graph.countListEditVisits(contents.references.count)
        guard contents.references.count >= 16 else { return contents.references.lastIndex(of: member) }
        var index = [Int64: Int](minimumCapacity: contents.references.count)
        for (position, reference) in contents.references.enumerated() { index[reference] = position }
        contents.memberIndex = index
        return index[member]
    }

    /// Adds a reference (and its object, while the objects match the references one for one).
    func appendMember(_ member: Int64, _ object: ManagedObject, to contents: ToManyContents) {
        let matched = contents.objects?.count == contents.references.count
        let buffers = contents.bufferAddresses
        defer { countMovedBuffers(of: contents, from: buffers) }
        // Taken out while `references` changes (which drops it), so it is changed in place.
        var index = contents.memberIndex
        contents.memberIndex = nil
        contents.references.append(member)
        index?[member] = contents.references.count - 1
        contents.memberIndex = index
        if matched { contents.objects?.append(object) } else { contents.objects = nil }
        contents.isDense = false
    }

    /// Takes a reference (and its object) out of a list. An ordered list's others keep their
    /// order; in a long unordered one, whose order means nothing, the last takes its place.
    func removeMember(_ member: Int64, from contents: ToManyContents, ordered: Bool) {
        guard let position = memberPosition(member, in: contents) else { return }
        let matched = contents.objects?.count == contents.references.count
        let buffers = contents.bufferAddresses
        defer { countMovedBuffers(of: contents, from: buffers) }
        let last = contents.references.count - 1
        // Positions 0, 1, 2... stay so only when the last one goes.
        if position != last { contents.isDense = false }
        var index = contents.memberIndex
        contents.memberIndex = nil
        if index != nil, !ordered, position != last {
            let moved = contents.references[last]
            contents.references.swapAt(position, last)
            contents.references.removeLast()
            index?[moved] = position
            if matched {
                contents.objects?.swapAt(position, last)
                contents.objects?.removeLast()
            }
        } else {
            contents.references.remove(at: position)
            if position != last { index = nil }
            if matched { contents.objects?.remove(at: position) }
        }
        if !matched { contents.objects = nil }
        index?[member] = nil
        contents.memberIndex = index
    }

    /// Counts a list's elements as visited when an edit moved its buffers: a reallocation as
    /// the list grows (a constant per element over all appends), or a copy of a buffer another
    /// value shared, which would cost one pass over the list per link.
    private func countMovedBuffers(of contents: ToManyContents, from before: (UnsafeRawPointer?, UnsafeRawPointer?)) {
        let after = contents.bufferAddresses
        if after.0 != before.0 { graph.countListEditVisits(contents.references.count) }
        if after.1 != before.1 { graph.countListEditVisits(contents.objects?.count ?? 0) }
    }

    // MARK: Editing an owned list

    /// Adds `added` to and takes `removed` out of `owner`'s owned list (a join table's owning
    /// side), as assigning the list with them would. False, changing nothing, when that is not a
    /// simple edit: the list holds objects a read would leave out (deleted ones), an added object
    /// is held already, or a removed one is not.
    func editOwnedList(of owner: ManagedObject, _ relationship: RelationshipDescription,
                       adding added: [ManagedObject], removing removed: [ManagedObject]) -> Bool {
        _ = toManyObjects(of: owner, relationship: relationship.index)
        guard let contents = owner.related?.toMany[relationship.index],
              contents.objects?.count == contents.references.count else { return false }
        let addedReferences = added.map(reference(to:))
        guard Set(addedReferences).count == added.count,
              !addedReferences.contains(where: contents.references.contains) else { return false }
        var indices: [Int] = []
        for object in removed {
            guard let index = contents.references.lastIndex(of: reference(to: object)) else { return false }
            indices.append(index)
        }
        guard !added.isEmpty || !removed.isEmpty else { return true }
        if undoManager != nil { undoRecordWillChangeList(owner, relationship: relationship.index, contents) }
        if contents.committed == nil {
            contents.committed = contents.references
            noteListOwner(owner)
        }
        for index in indices.sorted(by: >) {
            contents.references.remove(at: index)
            contents.objects?.remove(at: index)
        }
        contents.references.append(contentsOf: addedReferences)
        contents.objects?.append(contentsOf: added)
        markChanged(owner)
        noteToManyChange(owner, relationship: relationship.index)
        for object in added { linkPartner(object, owner: owner, relationship, linked: true) }
        for object in removed { linkPartner(object, owner: owner, relationship, linked: false) }
        for object in added + removed { noteInverseChange(object, relationship) }
        return true
    }

    // MARK: Assigning a to-many property

    /// The value of a to-many property: the one read or assigned last while the list is
    /// unchanged, else one made from the objects (and kept).
    func toManyValue<Value: RelationshipValue>(of object: ManagedObject, relationship index: Int) -> Value {
        let objects = toManyObjects(of: object, relationship: index)
        guard let contents = object.related?.toMany[index], contents.objects != nil else {
            return Value.relationshipValue(objects)
        }
        if let value = contents.value as? Value { return value }
        let value = Value.relationshipValue(objects)
        contents.value = value
        return value
    }

    /// Lets go of the kept value of a to-many property, so that the caller's copy is the only
    /// one and changes in place (an ordered to-many's `append` through `_modify`).
    func releaseToManyValue(of object: ManagedObject, relationship index: Int) {
        object.related?.toMany[index]?.value = nil
    }

    /// Assigns a to-many property. When the list is loaded and `change` (given the objects held
    /// now and the value kept) tells which objects were added and removed, only those are
    /// linked and unlinked; otherwise the whole list is assigned.
    func setToMany<Value: RelationshipValue>(of object: ManagedObject, relationship index: Int, to value: Value,
                                             change: (_ held: [ManagedObject], _ kept: Value?) -> ToManyChange?) {
        if let contents = currentList(of: object, relationship: index), contents.objects != nil {
            // The objects are not held past the comparison: appending to the list then needs no copy.
            let held = toManyObjects(of: object, relationship: index)
            graph.countListEditVisits(held.count)
            let change = change(held, contents.value as? Value)
            if object.related?.toMany[index] === contents, let change {
                switch applyToManyChange(of: object, relationship: index, contents, change) {
                case .applied:
                    if object.related?.toMany[index] === contents, contents.objects?.count == contents.references.count {
                        contents.value = value
                    }
                    return
                case .refused:
                    // The list keeps what it held (and the value kept for it): `value` is not it.
                    return
                case .notApplied:
                    break
                }
            }
        }
        setRelationship(of: object, relationship: index, to: value.relatedObjects)
    }

    /// What became of a change to a to-many made in place.
    private enum InPlaceChange {
        /// Linked and unlinked as assigning the whole list would.
        case applied
        /// Not made, and recorded as a problem for the next save (an object of another
        /// context, a deleted one, or one in no context).
        case refused
        /// Not made: assigning the whole list will tell.
        case notApplied
    }

    /// Links and unlinks the objects of `change` as assigning the whole list would, unless it
    /// cannot tell that it would do the same.
    private func applyToManyChange(of object: ManagedObject, relationship index: Int, _ contents: ToManyContents,
                                   _ change: ToManyChange) -> InPlaceChange {
        let relationship = object.entity.relationships[index]
        var seen = Set<ObjectIdentifier>()
        guard change.added.allSatisfy({ seen.insert(ObjectIdentifier($0)).inserted }) else { return .notApplied }
        if let problem = assignmentProblem(object, relationship, change.added) {
            recordProblem(problem, of: object, relationship: index)
            return .refused
        }
        switch relationship.storage {
        case .inverseForeignKey(let inverse, let slot, let positionSlot):
            // An ordered list keeps positions 0, 1, 2...: appending leaves them so, as assigning does.
            guard positionSlot == nil || contents.isDense, let destination = destination(of: relationship),
                  inverse < destination.relationships.count else { return .notApplied }
            let owner = SQLValue.integer(reference(to: object))
            guard !change.added.contains(where: { SQLValue.identical($0.storage[slot], owner) }) else { return .notApplied }
            clearProblem(of: object, relationship: index)
            for child in change.removed.reversed() { setToOne(child, destination.relationships[inverse], nil) }
            for child in change.added { setToOne(child, destination.relationships[inverse], object) }
            return .applied
        case .joinTable(_, isOwner: true):
            guard editOwnedList(of: object, relationship, adding: change.added, removing: change.removed) else { return .notApplied }
            clearProblem(of: object, relationship: index)
            return .applied
        case .joinTable(_, isOwner: false), .foreignKey, .unresolved:
            return .notApplied
        }
    }

    func clearProblem(of object: ManagedObject, relationship index: Int) {
        if object.related?.problems[index] != nil { object.related?.problems[index] = nil }
    }
}
