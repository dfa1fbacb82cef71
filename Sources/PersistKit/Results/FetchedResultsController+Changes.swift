import Foundation

extension FetchedResultsController {
    /// The objects of a notice that concern the rows, each once, by what happens to its row.
    typealias Candidates = (removed: [ManagedObject], added: [ManagedObject],
                            replaced: [ManagedObject], inPlace: [ManagedObject])

    /// Brings the rows up to date with one notice from the context, and reports the change.
    ///
    /// Objects of the entity the notice names are candidates, and so are those whose related
    /// objects changed in what the predicate or sorts read (a renamed project's tasks, for a
    /// controller filtering, sorting or sectioning by `project.name`).
    func contextDidChange(_ notice: ContextChanges) {
        guard let plan else { return }
        var related: [ManagedObject] = []
        if !relatedPaths.isEmpty && !notice.invalidatedAll {
            // Nil: a path has a relationship without an inverse, so only a refetch can tell.
            guard let affected = context.sourcesAffected(by: notice, paths: relatedPaths) else {
                refetchAndDiff(notice, plan: plan, related: [])
                return
            }
            related = affected
        }
        if notice.invalidatedAll || plan.limit > 0 || plan.offset > 0
            || prefersRefetch(notice, plan: plan, related: related.count) {
            refetchAndDiff(notice, plan: plan, related: related)
        } else {
            applyInPlace(notice, plan: plan, related: related)
        }
    }

    /// Whether the notice names so many objects of the entity that one refetch and diff costs
    /// less than placing each again (each placement is a few binary searches and dictionary
    /// updates; the refetch reads every row, but in one sequential pass).
    private func prefersRefetch(_ notice: ContextChanges, plan: ManagedObjectContext.FetchPlan, related: Int) -> Bool {
        let named = notice.inserted.count + notice.updated.count + notice.deleted.count + related
        guard named >= ResultsUpdatePolicy.minimumRefetchChanges else { return false }
        var changed = related
        for part in plan.parts.isEmpty ? [plan] : plan.parts { changed += notice.deletedKeys[part.entity.name]?.count ?? 0 }
        for object in notice.deleted where plan.reads(object.entity) { changed += 1 }
        for object in notice.inserted where plan.reads(object.entity) { changed += 1 }
        for update in notice.updated where plan.reads(update.object.entity) { changed += 1 }
        return ResultsUpdatePolicy.prefersRefetch(changed: changed, rows: core.count)
    }

    /// The notice's objects of the entity and the `related` ones (whose related objects
    /// changed), each once, decided by state alone (placed here? matching now?), whichever
    /// list the notice put it in: robust to any mix of insert, update and delete.
    private func candidates(_ notice: ContextChanges, plan: ManagedObjectContext.FetchPlan,
                            related: [ManagedObject]) -> Candidates {
        var result: Candidates = ([], [], [], [])
        var seen = Set<ObjectIdentifier>()
        var objects = notice.deleted + notice.inserted + notice.updated.map(\.object) + related
        if core.keyed {
            for entity in plan.parts.isEmpty ? [plan.entity] : plan.parts.map(\.entity) {
                guard let keys = notice.deletedKeys[entity.name] else { continue }
                // Rows deleted elsewhere that the context never held: this controller may hold their keys.
                objects += keys.filter(core.isPlaced(key:)).map { context.deletedStandIn(entity, key: $0) }
            }
        }
        for object in objects where plan.reads(object.entity) && seen.insert(ObjectIdentifier(object)).inserted {
            // A `MATCHES` over its bound on this object's value: not matching (a fetch throws).
            let matches = !object.deletedFlag && object.managedObjectContext === context && (try? plan.matchesAsItsEntity(object)) == true
            switch (core.isPlaced(object), matches) {
            case (true, true):
                if core.keepsItsPlace(object) { result.inPlace.append(object) } else { result.replaced.append(object) }
            case (true, false): result.removed.append(object)
            case (false, true): result.added.append(object)
            case (false, false): break
            }
        }
        return result
    }

    /// Takes out removed and replaced rows, puts in added and replaced rows at their new places,
    /// and reports the change: O(k log n) for k objects.
    private func applyInPlace(_ notice: ContextChanges, plan: ManagedObjectContext.FetchPlan, related: [ManagedObject]) {
        let objects = candidates(notice, plan: plan, related: related)
        guard !objects.removed.isEmpty || !objects.added.isEmpty || !objects.replaced.isEmpty || !objects.inPlace.isEmpty else { return }
        let oldLayout = core.layout(), oldKeys = core.sectionKeys
        let removedOld = objects.removed.compactMap(core.position)
        let replacedOld = objects.replaced.compactMap(core.position)
        let inPlaceOld = objects.inPlace.compactMap(core.position)
        guard removedOld.count == objects.removed.count, replacedOld.count == objects.replaced.count,
              inPlaceOld.count == objects.inPlace.count else {
            // The rows no longer agree with what was placed: never guess, refetch.
            refetchAndDiff(notice, plan: plan, related: related)
            return
        }
        // Only the delegate needs the objects that leave (by old path), once they are gone.
        var leaving: [IndexPath: ManagedObject] = [:]
        if delegate != nil {
            for (object, position) in zip(objects.removed + objects.replaced, removedOld + replacedOld) {
                leaving[oldLayout.path(of: position)] = object
            }
        }
        let newPositions = core.apply(outgoing: (removedOld + replacedOld).sorted(), incoming: objects.added + objects.replaced)
        invalidateSections()
        updateCounts.incremental += 1
        func newPosition(_ object: ManagedObject) -> Int {
            newPositions[ObjectIdentifier(object)] ?? core.position(of: object) ?? 0
        }
        var updated: [(old: Int, new: Int)] = []
        for (object, old) in zip(objects.replaced, replacedOld) { updated.append((old, newPosition(object))) }
        for (object, old) in zip(objects.inPlace, inPlaceOld) { updated.append((old, core.position(of: object) ?? 0)) }
        let input = ResultsDiffInput(old: oldLayout, new: core.layout(), removed: removedOld,
                                     inserted: objects.added.map(newPosition), updated: updated)
        deliver(ResultsDiff.changeSet(for: input), oldSectionKeys: oldKeys) { leaving[$0] }
    }

    /// Fetches again and compares by object ID: for windows (limit, offset), after a reset or
    /// another process's changes, and for large changes. `related` objects (whose related
    /// objects changed) that stay are reported as updated, as the notice's own updates are.
    func refetchAndDiff(_ notice: ContextChanges, plan: ManagedObjectContext.FetchPlan, related: [ManagedObject]) {
        let oldRows = core.rows.array, oldLayout = core.layout(), oldKeys = core.sectionKeys
        do {
            try fetchRows(plan, into: core)
        } catch {
            return   // the store cannot be read now; the next change tries again
        }
        invalidateSections()
        updateCounts.refetch += 1
        let input = refetchDiffInput(oldRows: oldRows, oldLayout: oldLayout, notice: notice, related: related, sorts: plan.sorts)
        deliver(ResultsDiff.changeSet(for: input), oldSectionKeys: oldKeys) { path in
            oldLayout.position(of: path).map { leavingObject(oldRows[$0]) }
        }
    }

    /// Replaces the rows with the plan's results: objects, or keys and sort values (batched).
    func fetchRows(_ plan: ManagedObjectContext.FetchPlan, into rows: ResultsRows) throws {
        guard rows.keyed else {
            rows.reset(try context.fetchObjects(plan, includesPendingChanges: fetchRequest.includesPendingChanges))
            return
        }
        var entries: [ResultsEntry] = []
        let sorts = plan.sorts
        keyEntities = [:]
        guard plan.parts.isEmpty else {
            try context.forEachKeyedRow(ofParts: plan, includesPendingChanges: fetchRequest.includesPendingChanges,
                                        sortValues: true) { key, values, object, entity in
                if let object {
                    entries.append(ResultsEntry(object: object, sorts: sorts, holding: object.hasTemporaryKey))
                    if !object.hasTemporaryKey { keyEntities[object.identityKey] = entity }
                } else {
                    entries.append(ResultsEntry(key: key, values: values))
                    keyEntities[key] = entity
                }
            }
            rows.reset(entries: entries)
            return
        }
        try context.forEachKeyedRow(plan, includesPendingChanges: fetchRequest.includesPendingChanges, sortValues: true) { key, values, object in
            if let object {
                entries.append(ResultsEntry(object: object, sorts: sorts, holding: object.hasTemporaryKey))
            } else {
                entries.append(ResultsEntry(key: key, values: values))
            }
        }
        rows.reset(entries: entries)
    }

    /// What changed between `oldRows` and the refetched rows: rows are matched by object ID
    /// (an object may be a new instance after a reset); a survivor changed when the notice
    /// updated it (or objects it reads through relationships), when it is another instance, or
    /// when its sort keys differ. A batched controller knows its saved rows by key only: a
    /// survivor the notice does not name (the context did not hold it) changed only if its
    /// sort keys did.
    private func refetchDiffInput(oldRows: [ResultsEntry], oldLayout: SectionLayout, notice: ContextChanges,
                                  related: [ManagedObject], sorts: [ResolvedSort]) -> ResultsDiffInput {
        var updatedObjects = Set(notice.updated.lazy.map { ObjectIdentifier($0.object) })
        for object in related { updatedObjects.insert(ObjectIdentifier(object)) }
        var updatedKeys = core.keyed ? Set(notice.updated.lazy.filter { !$0.object.hasTemporaryKey }.map(\.object.identityKey)) : []
        if core.keyed { for object in related where !object.hasTemporaryKey { updatedKeys.insert(object.identityKey) } }
        let oldIndex = ResultsRowIndex(oldRows)
        var survived = [Bool](repeating: false, count: oldRows.count)
        var inserted: [Int] = []
        var updated: [(old: Int, new: Int)] = []
        for (newIndex, row) in core.rows.enumerated() {
            guard let old = oldIndex.position(of: row) else {
                inserted.append(newIndex)
                continue
            }
            survived[old] = true
            let named = row.held.map { updatedObjects.contains(ObjectIdentifier($0)) } ?? false
                || (!row.isTemporary && updatedKeys.contains(row.key))
            let otherInstance = !core.keyed && oldRows[old].held !== row.held
            if named || otherInstance || !oldRows[old].sameKeys(as: row, count: sorts.count) {
                updated.append((old, newIndex))
            }
        }
        let removed = oldRows.indices.filter { !survived[$0] }
        return ResultsDiffInput(old: oldLayout, new: core.layout(), removed: removed, inserted: inserted, updated: updated)
    }
}
