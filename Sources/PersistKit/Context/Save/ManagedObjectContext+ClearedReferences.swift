extension ManagedObjectContext {
    /// After a save whose deletions left other rows referring to them (a `.noAction` rule, a
    /// one-way to-one): SQLite cleared those references, and the store gave the rows a new
    /// version. The objects this context holds for them read their rows again, and observers
    /// hear of the change at once, as they would of any other the save made.
    func rereadClearedReferences(_ cleared: [String: [Int64]]) {
        for (name, keys) in cleared {
            guard let entity = model.entity(named: name), let objects = registry.held(entity) else { continue }
            let held = keys.filter { objects.byKey[$0] != nil }
            if !held.isEmpty { _ = try? readObjects(entity: entity, keys: held) }
        }
        graph.advance()
        processPendingChanges()
    }
}
