/// The delete rules of a batch delete, run in SQL inside its transaction: which rows go
/// (cascades, to any depth; cycles end), which a `.deny` forbids, which references become NULL.
enum BatchDeletion {
    /// Whether deleting rows of `entity` is only that: no relationship of the model points at
    /// it (nothing to nullify, cascade from or unlink) and none of its own cascades or denies.
    /// Its join-table links, if it owns any, go with its rows (`ON DELETE CASCADE`).
    /// (In an inheritance tree, a relationship to any entity of the tree counts: to a parent,
    /// it holds this entity's rows; to a sub-entity, a request with sub-entities deletes them.)
    static func isDirect(_ entity: EntityDescription, model: ManagedObjectModel) -> Bool {
        entity.relationships.allSatisfy { $0.deleteRule != .cascade && $0.deleteRule != .deny }
            && model.entities.allSatisfy { other in other.relationships.allSatisfy { relationship in
                relationship.destinationEntityName != entity.name
                    && (entity.inheritance == nil || model.entity(named: relationship.destinationEntityName)?.tableName != entity.tableName)
            } }
    }

    /// The keys `doomed` holds of the entity named `name` and of those below it (a relationship
    /// to a parent holds its sub-entities' rows, which are filed under their own entities).
    static func doomedKeys(ofKind name: String, _ doomed: [String: Set<Int64>], model: ManagedObjectModel) -> Set<Int64> {
        guard let names = model.entity(named: name)?.inheritance?.concreteEntityNames else { return doomed[name] ?? [] }
        return names.reduce(into: Set<Int64>()) { $0.formUnion(doomed[$1] ?? []) }
    }

    /// The rows to delete, by entity name: the requested ones and every row they cascade to;
    /// and each entity's rows in the order they were found: requested keys come sorted and a
    /// cascade reads its rows by key runs, so sorting that list costs little, where sorting a
    /// set's rows costs a full sort.
    ///
    /// `requested` is one entity's rows, or an inheritance tree's request's, each concrete
    /// entity's; rows a cascade reaches in a tree are filed under their own entities.
    static func closureInOrder(of requested: [(entity: EntityDescription, keys: [Int64])], model: ManagedObjectModel,
                               _ connection: SQLiteConnection) throws -> (doomed: [String: Set<Int64>], found: [String: [Int64]]) {
        var doomed: [String: Set<Int64>] = [:]
        var found: [String: [Int64]] = [:]
        var work: [(EntityDescription, [Int64])] = []
        for (entity, keys) in requested {
            let unique = Set(keys)
            doomed[entity.name] = unique
            found[entity.name] = unique.count == keys.count ? keys : Array(unique)
            work.append((entity, keys))
        }
        while let (current, rows) = work.popLast() {
            for relationship in current.relationships where relationship.deleteRule == .cascade {
                guard let destination = model.entity(named: relationship.destinationEntityName) else { continue }
                if destination.inheritance != nil {
                    try cascadeIntoTree(relationship, from: current, rows: rows, to: destination, model: model, connection,
                                        &doomed, &found, &work)
                    continue
                }
                // The destination's set is taken out while it grows: one lookup, not one per row.
                var held = doomed.removeValue(forKey: destination.name) ?? []
                var fresh: [Int64] = []
                try forEachLink(of: relationship, from: current, rows: rows, model: model, connection) { _, target in
                    if held.insert(target).inserted { fresh.append(target) }
                }
                doomed[destination.name] = held
                if !fresh.isEmpty {
                    found[destination.name, default: []].append(contentsOf: fresh)
                    work.append((destination, fresh))
                }
            }
        }
        return (doomed, found)
    }

    /// A cascade into an inheritance tree: the rows it reaches (not already doomed under any
    /// entity of the destination's subtree) filed under their own entities, read from `_entity`.
    private static func cascadeIntoTree(_ relationship: RelationshipDescription, from current: EntityDescription, rows: [Int64],
                                        to destination: EntityDescription, model: ManagedObjectModel, _ connection: SQLiteConnection,
                                        _ doomed: inout [String: Set<Int64>], _ found: inout [String: [Int64]],
                                        _ work: inout [(EntityDescription, [Int64])]) throws {
        let held = doomedKeys(ofKind: destination.name, doomed, model: model)
        var fresh = Set<Int64>()
        try forEachLink(of: relationship, from: current, rows: rows, model: model, connection) { _, target in
            if !held.contains(target) { fresh.insert(target) }
        }
        guard !fresh.isEmpty else { return }
        let statement = try connection.prepare("SELECT \(SQLName.quote(SchemaSQL.primaryKey)), \(SQLName.quote(EntityInheritance.entityColumn)) "
            + "FROM \(SchemaSQL.table(of: destination)) WHERE \(SQLName.quote(SchemaSQL.primaryKey)) IN (SELECT value FROM json_each(?)) "
            + "ORDER BY 1")
        try statement.bind([SQLiteStore.jsonArray(fresh.sorted())])
        var byEntity: [String: [Int64]] = [:]
        while try statement.step() { byEntity[statement.string(at: 1), default: []].append(statement.int64(at: 0)) }
        for (name, keys) in byEntity.sorted(by: { $0.key < $1.key }) {
            guard let entity = model.entity(named: name) else { continue }
            doomed[name, default: []].formUnion(keys)
            found[name, default: []].append(contentsOf: keys)
            work.append((entity, keys))
        }
    }

    /// Refuses the deletion when a `.deny` relationship of a row to delete holds a row that stays.
    static func checkDenials(_ doomed: [String: Set<Int64>], model: ManagedObjectModel, _ connection: SQLiteConnection,
                             storeIdentifier: String) throws {
        var problems: [String] = []
        var offenders: [ObjectID] = []
        for (name, rows) in doomed.sorted(by: { $0.key < $1.key }) {
            guard let entity = model.entity(named: name) else { continue }
            for relationship in entity.relationships where relationship.deleteRule == .deny {
                let gone = doomedKeys(ofKind: relationship.destinationEntityName, doomed, model: model)
                let held = try links(of: relationship, from: entity, rows: Array(rows), model: model, connection)
                    .filter { !gone.contains($0.target) }
                for source in Set(held.map(\.source)).sorted() {
                    offenders.append(ObjectID(entityName: name, storeIdentifier: storeIdentifier, key: source, isTemporary: false))
                    problems.append("\(name) \(source) cannot be deleted: its relationship \(relationship.name) (delete rule deny) still holds "
                                    + "\(relationship.destinationEntityName) " + held.filter { $0.source == source }.map { String($0.target) }.joined(separator: ", "))
                }
            }
        }
        guard !problems.isEmpty else { return }
        throw PersistError(.validation, problems.count == 1 ? "Cannot delete: " + problems[0]
                               : "Cannot delete: \(problems.count) objects are held by deny relationships; nothing was deleted",
                           entity: offenders.first?.entityName, objectIDs: offenders, problems: problems)
    }

    /// Sets every to-one (of any entity) that refers to a row to delete to NULL, bumping the
    /// row's version; notes the rows changed, under the relationship's slot.
    static func nullify(_ doomed: [String: Set<Int64>], model: ManagedObjectModel,
                        _ connection: SQLiteConnection, into changes: inout BatchChanges) throws {
        // In a tree, each concrete entity clears its own rows (its relationships include the
        // inherited ones), so each row is noted once, as its own entity's.
        for entity in model.entities where !(entity.inheritance != nil && entity.isAbstract) {
            for relationship in entity.relationships {
                guard case .foreignKey(let slot, let positionSlot) = relationship.storage,
                      case let targets = doomedKeys(ofKind: relationship.destinationEntityName, doomed, model: model), !targets.isEmpty,
                      !isCascaded(slot, of: entity, to: relationship.destinationEntityName, model: model) else { continue }
                let column = SQLName.quote(entity.columns[slot].name)
                var sets = ["\(column) = NULL", "\(SQLName.quote(SchemaSQL.version)) = \(SQLName.quote(SchemaSQL.version)) + 1"]
                if let positionSlot { sets.append("\(SQLName.quote(entity.columns[positionSlot].name)) = NULL") }
                let statement = try connection.prepare("UPDATE \(SQLiteStore.batchTarget(entity)) SET " + sets.joined(separator: ", ")
                    + SQLiteStore.batchCondition("\(column) IN (SELECT value FROM json_each(?1)) AND \(SQLName.quote(SchemaSQL.primaryKey)) NOT IN "
                                                 + "(SELECT value FROM json_each(?2))", of: entity)
                    + " RETURNING \(SQLName.quote(SchemaSQL.primaryKey))")
                try statement.bind([SQLiteStore.jsonArray(targets.sorted()),
                                    SQLiteStore.jsonArray((doomed[entity.name] ?? []).sorted())])
                var nullified: [Int64] = []
                while try statement.step() { nullified.append(statement.int64(at: 0)) }
                changes.update(nullified, of: entity, slots: SlotSet([slot]))
            }
        }
    }

    /// Whether every row of `entity` whose foreign key in `slot` refers to a row to delete is
    /// deleted too: the destination cascades through that very key (``closureInOrder(of:keys:model:_:)``
    /// followed it from every row it deletes), so there is nothing left to nullify.
    private static func isCascaded(_ slot: Int, of entity: EntityDescription, to destinationName: String,
                                   model: ManagedObjectModel) -> Bool {
        guard let destination = model.entity(named: destinationName) else { return false }
        return destination.relationships.contains { inverse in
            guard inverse.deleteRule == .cascade, entity.isKind(of: inverse.destinationEntityName),
                  case .inverseForeignKey(_, slot, _) = inverse.storage else { return false }
            return true
        }
    }

    /// The order to delete the entities' rows in: an entity before those its to-ones point at,
    /// where the model allows (cycles are cut anywhere), so that SQLite's `ON DELETE SET NULL`
    /// finds no row referring to a deleted one (rows to delete are not first nullified).
    static func deletionOrder(_ names: [String], model: ManagedObjectModel) -> [String] {
        let wanted = Set(names)
        var order: [String] = [], visited = Set<String>()
        func visit(_ name: String) {
            guard visited.insert(name).inserted else { return }
            // Those pointing at `name` go first.
            let target = model.entity(named: name)
            for entity in model.entities where wanted.contains(entity.name) && entity.name != name {
                if entity.relationships.contains(where: { relationship in
                    guard target?.isKind(of: relationship.destinationEntityName) ?? (relationship.destinationEntityName == name),
                          case .foreignKey = relationship.storage else { return false }
                    return true
                }) { visit(entity.name) }
            }
            order.append(name)
        }
        for name in names.sorted() { visit(name) }
        return order
    }

    /// Notes the rows that stay but lose join-table links to rows to delete (the links go
    /// with the rows, by the tables' `ON DELETE CASCADE`): as a save records a link change,
    /// under the owning side's relationship.
    static func unlinkPartners(_ doomed: [String: Set<Int64>], model: ManagedObjectModel,
                               _ connection: SQLiteConnection, into changes: inout BatchChanges) throws {
        for entity in model.entities where !(entity.inheritance != nil && entity.isAbstract) {
            for relationship in entity.relationships {
                guard case .joinTable(let table, isOwner: true) = relationship.storage,
                      case let targets = doomedKeys(ofKind: table.destinationEntity, doomed, model: model), !targets.isEmpty else { continue }
                let owner = SQLName.quote(JoinTable.ownerColumn), destination = SQLName.quote(JoinTable.destinationColumn)
                // A tree's join table holds every entity's links: each concrete entity notes its own owners.
                let owners = entity.inheritance == nil ? "" : " AND \(owner) IN (SELECT \(SQLName.quote(SchemaSQL.primaryKey)) FROM "
                    + "\(SchemaSQL.table(of: entity)) WHERE \(SQLName.quote(EntityInheritance.entityColumn)) = \(SQLName.literal(entity.name)))"
                let statement = try connection.prepare("SELECT DISTINCT \(owner) FROM \(SQLName.quote(table.name)) WHERE \(destination) IN "
                    + "(SELECT value FROM json_each(?)) AND \(owner) NOT IN (SELECT value FROM json_each(?))\(owners) ORDER BY \(owner)")
                try statement.bind([SQLiteStore.jsonArray(targets.sorted()),
                                    SQLiteStore.jsonArray((doomed[entity.name] ?? []).sorted())])
                var partners: [Int64] = []
                while try statement.step() { partners.append(statement.int64(at: 0)) }
                changes.update(partners, of: entity, slots: SlotSet([entity.columns.count + relationship.index]))
            }
        }
    }

    /// The links a relationship holds from `rows` of `entity`: (source row, destination row).
    static func links(of relationship: RelationshipDescription, from entity: EntityDescription, rows: [Int64],
                      model: ManagedObjectModel, _ connection: SQLiteConnection) throws -> [(source: Int64, target: Int64)] {
        var result: [(source: Int64, target: Int64)] = []
        try forEachLink(of: relationship, from: entity, rows: rows, model: model, connection) { result.append(($0, $1)) }
        return result
    }

    /// Calls `body` with each link a relationship holds from `rows` of `entity` (source row,
    /// destination row), as read: a cascade over many rows makes no array of them.
    static func forEachLink(of relationship: RelationshipDescription, from entity: EntityDescription, rows: [Int64],
                            model: ManagedObjectModel, _ connection: SQLiteConnection,
                            _ body: (_ source: Int64, _ target: Int64) -> Void) throws {
        guard !rows.isEmpty else { return }
        let primaryKey = SQLName.quote(SchemaSQL.primaryKey)
        let sql: String
        switch relationship.storage {
        case .unresolved:
            return
        case .foreignKey(let slot, _):
            let column = SQLName.quote(entity.columns[slot].name)
            sql = "SELECT \(primaryKey), \(column) FROM \(SchemaSQL.table(of: entity)) WHERE \(primaryKey) IN (SELECT value FROM json_each(?)) "
                + "AND \(column) IS NOT NULL"
        case .inverseForeignKey(_, let slot, _):
            guard let destination = model.entity(named: relationship.destinationEntityName) else { return }
            let column = SQLName.quote(destination.columns[slot].name)
            sql = "SELECT \(column), \(primaryKey) FROM \(SchemaSQL.table(of: destination)) WHERE \(column) IN (SELECT value FROM json_each(?))"
        case .joinTable(let table, let isOwner):
            let owner = SQLName.quote(JoinTable.ownerColumn), destination = SQLName.quote(JoinTable.destinationColumn)
            let (from, to) = isOwner ? (owner, destination) : (destination, owner)
            sql = "SELECT \(from), \(to) FROM \(SQLName.quote(table.name)) WHERE \(from) IN (SELECT value FROM json_each(?))"
        }
        let statement = try connection.prepare(sql)
        try statement.bind([SQLiteStore.jsonArray(rows)])
        while try statement.step() { body(statement.int64(at: 0), statement.int64(at: 1)) }
    }
}
