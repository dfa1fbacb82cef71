import Foundation
import PersistKit
import PersistKitText

/// What a push does to the server's objects, computed in the pushing client inside the push's
/// transaction (which holds the space's row lock, so pushes of a space run one at a time):
///
/// - **Keys, last writer wins.** Each key of a record takes the pushed value when the pushed
///   clock reading is newer than the stored one; an older one is dropped (a conflict
///   resolved). A push tried again changes nothing: every reading is already there.
/// - **Deletes.** Under ``SyncConfiguration/DeletePolicy/deleteWins`` a deleted object stays
///   deleted, whatever updates come later; under `lastWriterWins` an update newer than the
///   deletion brings it back, and a deletion newer than every key removes it.
/// - **Uniqueness.** A live object whose uniqueness-constrained values equal another live
///   object's is merged with it: the object with the smaller global ID wins and keeps the
///   newest value of every key of both, the other is marked merged into it, and every link to
///   or from the loser moves to the winner (a link both had keeps its newest state). The
///   result does not depend on which of the two arrived first.
struct ServerMerge {
    let policy: SyncConfiguration.DeletePolicy
    /// Uniqueness constraints by entity (attribute names).
    let uniqueness: [String: [[String]]]
    /// Constrained attributes whose values match without regard to case, by entity.
    let ignoringCase: [String: Set<String>]
    /// The link record entities.
    let linkEntities: Set<String>

    /// The rows touched so far, as they stand now, and as they were loaded.
    private(set) var rows: [String: SyncRecord] = [:]
    private(set) var loaded: [String: SyncRecord] = [:]
    /// IDs of rows changed, in the order first changed.
    private(set) var changedOrder: [String] = []
    private var changedSet = Set<String>()
    /// Keys whose pushed value lost to a newer one, deletions that overrode updates, and
    /// uniqueness merges.
    private(set) var conflictsResolved = 0
    /// Each changed record's pushed part, for the change log: the keys it changed.
    private(set) var logged: [String: SyncRecord] = [:]

    init(policy: SyncConfiguration.DeletePolicy, uniqueness: [String: [[String]]], ignoringCase: [String: Set<String>] = [:],
         linkEntities: Set<String>) {
        self.policy = policy
        self.uniqueness = uniqueness
        self.ignoringCase = ignoringCase
        self.linkEntities = linkEntities
    }

    /// Adds rows read from the server (ignored for IDs already here).
    mutating func load(_ records: [SyncRecord]) {
        for record in records where rows[record.id] == nil {
            rows[record.id] = record
            loaded[record.id] = record
        }
    }

    /// Whether a row is a live object: not merged, and not deleted (or, under
    /// `lastWriterWins`, updated after its deletion).
    func isAlive(_ record: SyncRecord) -> Bool {
        guard record.mergedInto == nil else { return false }
        guard let deleted = record.deleted else { return true }
        return policy == .lastWriterWins && (record.newestClock ?? "") > deleted
    }

    /// The object an ID stands for now: itself, or the object it was merged into (followed).
    func resolve(_ id: String) -> String {
        var current = id
        var seen = Set<String>()
        while let next = rows[current]?.mergedInto, seen.insert(current).inserted { current = next }
        return current
    }

    // MARK: Applying a push

    /// Applies one pushed record: links' ends and the record itself are first resolved through
    /// merges (a store that has not heard of a merge yet still writes to the winner).
    mutating func apply(_ pushed: SyncRecord) {
        var record = pushed
        if linkEntities.contains(record.entity),
           let owner = record.fields[SyncRecord.ownerKey]?.text, let target = record.fields[SyncRecord.targetKey]?.text {
            let (resolvedOwner, resolvedTarget) = (resolve(owner), resolve(target))
            if (resolvedOwner, resolvedTarget) != (owner, target) {
                record.id = SyncRecord.linkID(owner: resolvedOwner, relationship: SyncRecord.relationship(ofLinkEntity: record.entity), target: resolvedTarget)
                record.fields[SyncRecord.ownerKey] = SyncValue(.text(resolvedOwner))
                record.fields[SyncRecord.targetKey] = SyncValue(.text(resolvedTarget))
            }
        } else {
            record.id = resolve(record.id)
        }
        merge(record, into: record.id)
    }

    /// Merges `incoming`'s keys and deletion into the row `id` (made when missing).
    private mutating func merge(_ incoming: SyncRecord, into id: String) {
        var row = rows[id] ?? SyncRecord(id: id, entity: incoming.entity)
        var changes = SyncRecord(id: id, entity: row.entity)
        let wasAlive = rows[id].map(isAlive) ?? false
        for (key, clock) in incoming.clocks {
            let value = incoming.fields[key] ?? .null
            if let stored = row.clocks[key], stored >= clock {
                if stored > clock && row.fields[key] != value { conflictsResolved += 1 }
                continue
            }
            row.fields[key] = value
            row.clocks[key] = clock
            changes.fields[key] = value
            changes.clocks[key] = clock
        }
        if let deleted = incoming.deleted, row.deleted.map({ deleted > $0 }) ?? true {
            if wasAlive && policy == .deleteWins && (row.newestClock ?? "") > deleted { conflictsResolved += 1 }
            row.deleted = deleted
            changes.deleted = deleted
        } else if incoming.deleted == nil, row.deleted != nil, !changes.clocks.isEmpty, !isAlive(row) {
            conflictsResolved += 1   // an update of a deleted object, dropped by the delete
        }
        guard !changes.clocks.isEmpty || changes.deleted != nil || rows[id] == nil else { return }
        rows[id] = row
        note(id, changes)
    }

    private mutating func note(_ id: String, _ changes: SyncRecord) {
        if changedSet.insert(id).inserted { changedOrder.append(id) }
        var entry = logged[id] ?? SyncRecord(id: id, entity: changes.entity)
        entry.fields.merge(changes.fields) { $1 }
        entry.clocks.merge(changes.clocks) { $1 }
        entry.deleted = changes.deleted ?? entry.deleted
        entry.mergedInto = changes.mergedInto ?? entry.mergedInto
        logged[id] = entry
    }

    // MARK: Uniqueness

    /// A uniqueness constraint's value held by an object: the entity, the constraint (its
    /// keys joined by commas) and the values (JSON).
    struct UniqueValue: Hashable, Sendable {
        let entity: String
        let keys: String
        let value: String
    }

    /// The constrained values a live row holds (none for a row with a nil among them); text of
    /// an attribute matched without regard to case is case-folded.
    func uniqueValues(of record: SyncRecord) -> [UniqueValue] {
        guard isAlive(record), let constraints = uniqueness[record.entity] else { return [] }
        let folded = ignoringCase[record.entity] ?? []
        return constraints.compactMap { keys in
            let values = keys.map { key in
                let value = record.fields[key] ?? .null
                guard folded.contains(key), let text = value.text else { return value }
                return SyncValue(.text(TextFolding.fold(text, .caseInsensitive)))
            }
            guard !values.contains(.null), let data = try? JSONEncoder.sorted.encode(values) else { return nil }
            return UniqueValue(entity: record.entity, keys: keys.joined(separator: ","), value: String(decoding: data, as: UTF8.self))
        }
    }

    /// The constrained values of the changed rows before and after the push, to look up and to
    /// write back: `removed` are values rows gave up, `held` the values changed rows hold now.
    func uniqueChanges() -> (removed: [(UniqueValue, String)], held: [(UniqueValue, String)]) {
        var removed: [(UniqueValue, String)] = [], held: [(UniqueValue, String)] = []
        for id in changedOrder {
            guard let row = rows[id] else { continue }
            let now = Set(uniqueValues(of: row))
            let before = Set(loaded[id].map(uniqueValues) ?? [])
            removed += before.subtracting(now).map { ($0, id) }
            held += now.map { ($0, id) }
        }
        return (removed, held)
    }

    /// Merges `loser` into `winner`: the winner takes the newest value of every key of both,
    /// the loser is marked merged. Returns false when either is not a live row here.
    mutating func mergeObject(_ loser: String, into winner: String) -> Bool {
        guard loser != winner, var losing = rows[loser], var winning = rows[winner], isAlive(losing), isAlive(winning) else {
            return false
        }
        var changes = SyncRecord(id: winner, entity: winning.entity)
        for (key, clock) in losing.clocks where (winning.clocks[key] ?? "") < clock {
            winning.fields[key] = losing.fields[key] ?? .null
            winning.clocks[key] = clock
            changes.fields[key] = winning.fields[key]
            changes.clocks[key] = clock
        }
        rows[winner] = winning
        if !changes.clocks.isEmpty { note(winner, changes) }
        losing.mergedInto = winner
        rows[loser] = losing
        var merged = SyncRecord(id: loser, entity: losing.entity)
        merged.mergedInto = winner
        note(loser, merged)
        conflictsResolved += 1
        return true
    }

    /// Moves the links `links` (rows of links to or from `loser`, already loaded) to `winner`:
    /// each becomes (or merges into) the link between the winner and the other end, and the
    /// old link is marked merged into the new one.
    mutating func moveLinks(_ links: [SyncRecord], from loser: String, to winner: String) {
        for link in links {
            guard let current = rows[link.id], current.mergedInto == nil,
                  let owner = current.fields[SyncRecord.ownerKey]?.text, let target = current.fields[SyncRecord.targetKey]?.text
            else { continue }
            let newOwner = owner == loser ? winner : owner, newTarget = target == loser ? winner : target
            let newID = SyncRecord.linkID(owner: newOwner, relationship: SyncRecord.relationship(ofLinkEntity: current.entity), target: newTarget)
            var moved = current
            moved.id = newID
            moved.fields[SyncRecord.ownerKey] = SyncValue(.text(newOwner))
            moved.fields[SyncRecord.targetKey] = SyncValue(.text(newTarget))
            moved.clocks[SyncRecord.ownerKey] = current.clocks[SyncRecord.ownerKey]
            moved.deleted = nil
            if rows[newID] == nil { rows[newID] = SyncRecord(id: newID, entity: current.entity) }
            merge(moved, into: newID)
            var old = current
            old.mergedInto = newID
            rows[link.id] = old
            var merged = SyncRecord(id: link.id, entity: current.entity)
            merged.mergedInto = newID
            note(link.id, merged)
        }
    }
}

extension JSONEncoder {
    /// An encoder with sorted keys: the same value always gives the same text.
    static let sorted: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
