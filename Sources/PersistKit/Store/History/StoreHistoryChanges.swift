import Foundation

/// What one transaction changed, as its history record keeps it: primary keys by entity name,
/// updated objects grouped by the names of the keys that changed.
///
/// Stored as compact JSON (`{"i":{"Task":[1,-99999]},"u":{"Task":[{"k":["due"],"o":[7,12]}]},"d":{}}`):
/// sorted keys in runs, where a negative number `-n` after a key stands for the `n` keys that
/// follow it, so a save of 100,000 new objects records two numbers.
struct StoreHistoryChanges: Sendable, Equatable {
    /// Objects of one entity whose same keys changed.
    struct UpdateGroup: Sendable, Equatable {
        /// The attribute and relationship names that changed, in slot order, each once.
        var keyNames: [String]
        /// The primary keys, ascending.
        var objects: [Int64]
    }

    var inserted: [String: [Int64]] = [:]
    var updated: [String: [UpdateGroup]] = [:]
    var deleted: [String: [Int64]] = [:]

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// The changes as the store's change log holds them for the other contexts.
    func storeChange(origin: Int) -> StoreChange {
        var change = StoreChange(sequence: 0, origin: origin, inserted: inserted, deleted: deleted)
        for (entity, groups) in updated {
            change.updated[entity] = groups.flatMap(\.objects).sorted()
        }
        change.listChanges = updated
        return change
    }
}

extension StoreHistoryChanges {
    /// What a save wrote: its log entry's inserted and deleted keys, its updates grouped by the
    /// keys they changed, and both sides of the join-table links it changed (each updated under
    /// the name of its side of the relationship, unless inserted or deleted by the same save:
    /// `task.tags` changed as much as `tag.tasks`, though the task's row did not).
    init(plan: StoreWritePlan, change: StoreChange, model: ManagedObjectModel) {
        inserted = change.inserted.mapValues { $0.sorted() }
        deleted = change.deleted.mapValues { $0.sorted() }
        guard !plan.updates.isEmpty || !plan.links.isEmpty || !plan.listPartners.isEmpty else { return }
        var groups = Groups()
        if plan.links.isEmpty && plan.listPartners.isEmpty {
            // Each object is updated once: group by changed slots directly (runs of updates
            // changing the same slots, the usual case, join the previous group at once).
            // The previous update by index: holding a copy of it retained and released its arrays.
            var previous: (index: Int, group: Int)?
            for index in plan.updates.indices {
                if let (last, group) = previous, plan.updates[last].entity === plan.updates[index].entity,
                   plan.updates[last].slots == plan.updates[index].slots {
                    groups.list[group].keys.append(plan.updates[index].key)
                } else {
                    previous = (index, groups.add(plan.updates[index].key, entity: plan.updates[index].entity,
                                                  slots: SlotSet(plan.updates[index].slots)))
                }
            }
        } else {
            groups = Self.groups(plan, deleted: change.deleted, model: model)
        }
        for group in groups.list {
            updated[group.entity.name, default: []].append(UpdateGroup(keyNames: Self.names(group.slots.slots, of: group.entity),
                                                                       objects: group.keys.sorted()))
        }
        for entity in updated.keys { updated[entity]?.sort { ($0.objects.first ?? 0) < ($1.objects.first ?? 0) } }
    }

    /// Updated objects grouped by entity and changed slots, in order of first appearance.
    private struct Groups {
        var list: [(entity: EntityDescription, slots: SlotSet, keys: [Int64])] = []
        private var index: [GroupKey: Int] = [:]
        /// The groups' keys in list order: searched while there are few.
        private var keys: [GroupKey] = []

        /// Adds an object to its group; returns the group's index in ``list``.
        @discardableResult
        mutating func add(_ key: Int64, entity: EntityDescription, slots: SlotSet) -> Int {
            // A save's updates fall in a few groups: looked for in the list, hashed only beyond.
            let group = GroupKey(entity: ObjectIdentifier(entity), slots: slots)
            let position = (keys.count <= 8 ? keys.firstIndex(of: group) : index[group]) ?? list.count
            if position == list.count {
                list.append((entity, slots, []))
                keys.append(group)
                index[group] = position
            }
            list[position].keys.append(key)
            return position
        }
    }

    /// With to-many changes (join-table links, the targets of changed to-ones): each object's
    /// changed slots (a list as its virtual slot) merged first, so that an object changed both
    /// ways is one entry.
    private static func groups(_ plan: StoreWritePlan, deleted: [String: [Int64]], model: ManagedObjectModel) -> Groups {
        var slots: [ObjectKey: (entity: EntityDescription, slots: SlotSet)] = [:]
        var order: [ObjectKey] = []
        func add(_ entity: EntityDescription, _ key: Int64, _ changed: SlotSet) {
            let object = ObjectKey(entity: ObjectIdentifier(entity), key: key)
            if slots[object] == nil { order.append(object) }
            slots[object, default: (entity, SlotSet())].slots.formUnion(changed)
        }
        for update in plan.updates { add(update.entity, update.key, SlotSet(update.slots)) }
        let gone = deleted.mapValues(Set.init)
        for partner in plan.listPartners where gone[partner.entity]?.contains(partner.key) != true {
            if let entity = model.entity(named: partner.entity) { add(entity, partner.key, SlotSet([partner.slot])) }
        }
        for link in plan.links {
            if let (entity, slot) = listSlot(of: link.table, isOwner: true, model: model),
               link.owner > 0, gone[entity.name]?.contains(link.owner) != true {
                add(entity, link.owner, SlotSet([slot]))
            }
            // The other side's lists (derived from the table) changed too; unsaved partners
            // (negative references) are inserted by this save.
            guard let (entity, slot) = listSlot(of: link.table, isOwner: false, model: model) else { continue }
            for key in link.added + link.removed where key > 0 && gone[entity.name]?.contains(key) != true {
                add(entity, key, SlotSet([slot]))
            }
        }
        var groups = Groups()
        for object in order {
            if let found = slots[object] { groups.add(object.key, entity: found.entity, slots: found.slots) }
        }
        return groups
    }

    /// The entity on one side of a join table and the virtual slot of its relationship there;
    /// nil for the far side of a one-way to-many (no relationship to change).
    private static func listSlot(of table: JoinTable, isOwner: Bool, model: ManagedObjectModel) -> (EntityDescription, Int)? {
        guard let entity = model.entity(named: isOwner ? table.ownerEntity : table.destinationEntity),
              let relationship = entity.relationships.first(where: { $0.storage == .joinTable(table, isOwner: isOwner) }) else { return nil }
        return (entity, entity.columns.count + relationship.index)
    }

    private struct ObjectKey: Hashable {
        let entity: ObjectIdentifier
        let key: Int64
    }

    private struct GroupKey: Hashable {
        let entity: ObjectIdentifier
        let slots: SlotSet
    }

    /// The key names of changed slots, in slot order, each once (an ordered to-one's position
    /// column reports under its relationship's name).
    static func names(_ slots: [Int], of entity: EntityDescription) -> [String] {
        var seen = Set<String>()
        return slots.sorted().compactMap { entity.keyName(forSlot: $0) }.filter { seen.insert($0).inserted }
    }
}

// MARK: Stored form

extension StoreHistoryChanges: Decodable {
    private enum CodingKeys: String, CodingKey {
        case inserted = "i", updated = "u", deleted = "d"
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        inserted = try Self.expand(container.decodeIfPresent([String: [Int64]].self, forKey: .inserted) ?? [:], container, .inserted)
        deleted = try Self.expand(container.decodeIfPresent([String: [Int64]].self, forKey: .deleted) ?? [:], container, .deleted)
        updated = try container.decodeIfPresent([String: [UpdateGroup]].self, forKey: .updated) ?? [:]
    }

    private static func expand(_ runs: [String: [Int64]], _ container: KeyedDecodingContainer<CodingKeys>,
                               _ key: CodingKeys) throws -> [String: [Int64]] {
        try runs.mapValues { compressed in
            guard let keys = KeyRuns.expand(compressed) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "malformed key runs")
            }
            return keys
        }
    }

    /// The JSON text stored in the history table, written by hand into bytes: a record then
    /// costs a save about as much as a few more rows (JSONEncoder cost a quarter of an update
    /// save's instructions).
    func encoded() -> String {
        var json = JSONBytes()
        json.append("{")
        var sections = 0
        for (name, keys) in [("i", inserted), ("d", deleted)] where !keys.isEmpty {
            json.append(sections == 0 ? "\"\(name)\":{" : ",\"\(name)\":{")
            sections += 1
            for (index, (entity, keys)) in keys.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { json.append(",") }
                json.appendQuoted(entity)
                json.append(":")
                json.appendRuns(keys)
            }
            json.append("}")
        }
        if !updated.isEmpty {
            json.append(sections == 0 ? "\"u\":{" : ",\"u\":{")
            for (index, (entity, groups)) in updated.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { json.append(",") }
                json.appendQuoted(entity)
                json.append(":[")
                for (position, group) in groups.enumerated() {
                    json.append(position == 0 ? "{\"k\":[" : ",{\"k\":[")
                    for (nameIndex, name) in group.keyNames.enumerated() {
                        if nameIndex > 0 { json.append(",") }
                        json.appendQuoted(name)
                    }
                    json.append("],\"o\":")
                    json.appendRuns(group.objects)
                    json.append("}")
                }
                json.append("]")
            }
            json.append("}")
        }
        json.append("}")
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// Decodes a stored record's changes.
    ///
    /// - Throws: ``PersistError`` `.notADatabase` when the text is not a history record.
    static func decode(_ text: String, record: Int64) throws -> StoreHistoryChanges {
        do {
            return try JSONDecoder().decode(StoreHistoryChanges.self, from: Data(text.utf8))
        } catch {
            throw PersistError(.notADatabase, "History record \(record) is damaged: \(error)")
        }
    }
}

extension StoreHistoryChanges.UpdateGroup: Decodable {
    private enum CodingKeys: String, CodingKey {
        case keyNames = "k", objects = "o"
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        keyNames = try container.decode([String].self, forKey: .keyNames)
        guard let keys = KeyRuns.expand(try container.decode([Int64].self, forKey: .objects)) else {
            throw DecodingError.dataCorruptedError(forKey: .objects, in: container, debugDescription: "malformed key runs")
        }
        objects = keys
    }
}
